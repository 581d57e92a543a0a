// `rewind-studio du [--cwd DIR] [--json]`: how much backup storage file history uses, per
// workspace and per session. Read-only.
import { historyFoldersOf } from '../../core/files/history-paths'
import {
  type WorkspaceUsage,
  listHistoryWorkspaces,
  workspaceUsage
} from '../../core/rewind/retention'
import { runsUsage } from '../../core/parallel/run-gc'
import { diskSize } from '../../shared/disk-size'
import { rewindStudioHome } from '../../core/session/paths'

const USAGE = `Usage: rewind-studio du [--cwd DIR] [--json]

Shows the backup storage of workspace DIR (default: every workspace with file history): the
blobs on disk, what each session's records name (a blob shared by sessions counts for each),
blobs no record names (Bash baselines, restore backups) and restore journals; then the disk the
workspaces of parallel runs take (text only).`

/**
 * The file-history folders of the --cwd workspace (its own and, from before, the one named by
 * its encoded path alone), or null without --cwd: the one other option both du and gc take.
 */
export function workspaceArg(args: string[], command: string, home: string): string[] | null {
  const at = args.indexOf('--cwd')
  if (at === -1) return null
  const dir = args[at + 1]
  if (dir === undefined) throw new Error(`${command}: --cwd needs a folder`)
  return historyFoldersOf(home, dir)
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  const known = new Set(['--cwd', '--json'])
  const unknown = args.filter(
    (a, i) => a.startsWith('-') && !known.has(a) && args[i - 1] !== '--cwd'
  )
  if (unknown.length > 0) {
    console.error(`du: unknown option ${unknown[0]}\n\n${USAGE}`)
    return 2
  }
  const home = rewindStudioHome()
  let chosen: string[] | null
  try {
    chosen = workspaceArg(args, 'du', home)
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const workspaces = chosen ?? (await listHistoryWorkspaces(home))
  const usages: WorkspaceUsage[] = []
  try {
    for (const ws of workspaces) usages.push(await workspaceUsage(home, ws))
  } catch (error) {
    console.error(`du: ${(error as Error).message}`)
    return 1
  }
  if (args.includes('--json')) {
    console.log(JSON.stringify(usages, null, 2))
    return 0
  }
  if (usages.length === 0) console.log(`No file history under ${home}.`)
  for (const runs of runsUsage(home)) {
    if (runs.workspaces === 0) continue
    console.log(
      `runs/${runs.folder}: ${runs.workspaces} parallel run workspaces, ${diskSize(runs.bytes)} on disk (removed when adopted or discarded)`
    )
  }
  for (const u of usages) {
    console.log(
      `${u.workspace}: ${diskSize(u.blobBytes)} in ${u.blobCount} blobs, ${diskSize(u.unreferencedBytes)} named by no record, ${u.journals} restore journals`
    )
    for (const s of u.sessions) {
      const missing = s.missingBlobs > 0 ? `, ${s.missingBlobs} backups pruned` : ''
      console.log(
        `  ${s.sessionId}  ${s.createdAt}  ${String(s.checkpoints).padStart(4)} checkpoints  ${diskSize(s.bytes).padStart(9)}${missing}`
      )
    }
  }
  return 0
}
