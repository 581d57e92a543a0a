// `rewind-studio gc`: prunes file-history backups now, by the retention rules (size cap, age,
// oldest first; never what the latest checkpoints of a session's active path need).
import { collectRuns } from '../../core/parallel/run-gc'
import { rewindStudioHome } from '../../core/session/paths'
import {
  DEFAULT_RETENTION,
  type GcReport,
  type RetentionPolicy,
  collectGarbage,
  listHistoryWorkspaces
} from '../../core/rewind/retention'
import { diskSize } from '../../shared/disk-size'
import { workspaceArg } from './du'
import { counted } from '../../shared/counted'

const USAGE = `Usage: rewind-studio gc [--cwd DIR] [--max-gb N] [--max-age-days N] [--dry-run] [--json]

Prunes the backups of workspace DIR (default: every workspace with file history), oldest first,
until they fit in --max-gb (default ${DEFAULT_RETENTION.maxBytes / 1e9}) and none is older than --max-age-days
(default ${DEFAULT_RETENTION.maxAgeDays}). Never pruned: what the latest ${DEFAULT_RETENTION.keepCheckpoints} checkpoints of each session's
active path need, what undoing each session's last rewind needs, and anything used in the last
${DEFAULT_RETENTION.graceHours} hours. --dry-run reports what it would prune.`

function numberAfter(args: string[], flag: string): number | null {
  const at = args.indexOf(flag)
  if (at === -1) return null
  const value = Number(args[at + 1])
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`gc: ${flag} needs a number, not "${args[at + 1] ?? ''}"`)
  }
  return value
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  const withValue = new Set(['--cwd', '--max-gb', '--max-age-days'])
  const flags = new Set(['--dry-run', '--json'])
  const unknown = args.filter(
    (a, i) =>
      a.startsWith('-') && !withValue.has(a) && !flags.has(a) && !withValue.has(args[i - 1] ?? '')
  )
  const home = rewindStudioHome()
  let policy: RetentionPolicy
  let chosen: string[] | null
  try {
    if (unknown.length > 0) throw new Error(`gc: unknown option ${unknown[0]}`)
    const maxGb = numberAfter(args, '--max-gb')
    const maxAgeDays = numberAfter(args, '--max-age-days')
    policy = {
      ...DEFAULT_RETENTION,
      ...(maxGb === null ? {} : { maxBytes: maxGb * 1e9 }),
      ...(maxAgeDays === null ? {} : { maxAgeDays })
    }
    chosen = workspaceArg(args, 'gc', home)
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const dryRun = args.includes('--dry-run')
  const reports: GcReport[] = []
  try {
    const workspaces = chosen ?? (await listHistoryWorkspaces(home))
    for (const ws of workspaces) reports.push(await collectGarbage(home, ws, policy, { dryRun }))
    // What crashes left of parallel runs (core/parallel/run-gc.ts); their logs are kept.
    const runs = dryRun ? null : await collectRuns(home)
    if (runs !== null && runs.runs.length + runs.folders.length > 0 && !args.includes('--json')) {
      console.log(
        `removed the workspaces of ${counted(runs.runs.length, 'run')} a crash stopped, and ${counted(runs.folders.length, 'half-made run folder')}`
      )
    }
  } catch (error) {
    console.error(`gc: ${(error as Error).message}`)
    return 1
  }
  if (args.includes('--json')) {
    console.log(JSON.stringify(reports, null, 2))
    return 0
  }
  const verb = dryRun ? 'would prune' : 'pruned'
  for (const r of reports) {
    console.log(
      `${r.workspace}: ${verb} ${r.deletedBlobs} blobs (${diskSize(r.freedBytes)}) and ${r.deletedJournals} journals; ${diskSize(r.remainingBytes)} left`
    )
    if (r.packedBlobs > 0) console.log(`  packed ${r.packedBlobs} idle blobs into one file`)
    if (r.overCapReason !== null) console.log(`  over the cap: ${r.overCapReason}`)
  }
  if (reports.length === 0) console.log(`No file history under ${home}.`)
  return 0
}
