// `rewind-studio sessions [--cwd DIR] [--all] [--json]`: the sessions of a workspace from every
// tool that keeps them (ours, Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode), newest first; with --all, every project
// found in their homes. Read-only: what it reads is summarized once in the session index under
// the data home (core/sources), so listing again reads only the logs that changed.
import { resolve } from 'node:path'
import { rewindStudioHome } from '../../core/session/paths'
import { Sources } from '../../core/sources/discovery'
import { escapeControlCharsInJson, escapeControlCharsOneLine } from '../../shared/control-chars'
import { maskSecrets } from '../../shared/mask-secrets'
import { failWith, wantsHelp } from '../command-failure'
import { say } from '../format'

const USAGE = `Usage: rewind-studio sessions [--cwd DIR] [--all] [--json]

Lists the sessions of workspace DIR (default: the current directory) from every tool: Rewind
Studio's own, Claude Code's, pi's and oh-my-pi's, newest first, each with its title (a title
record, else its first prompt), last activity, prompt count and file. --all lists every project
found instead, with its session count per tool. Where each tool's sessions are looked for:
REWIND_STUDIO_CLAUDE_HOME or CLAUDE_CONFIG_DIR (default ~/.claude), REWIND_STUDIO_PI_HOME or
PI_CODING_AGENT_DIR (default ~/.pi/agent), REWIND_STUDIO_OMP_HOME (default ~/.omp/agent), or
the settings sources.claudeCodeHome, sources.piHome, sources.ohMyPiHome.`

export async function run(args: string[]): Promise<number> {
  if (wantsHelp(args)) {
    console.log(USAGE)
    return 0
  }
  const at = args.indexOf('--cwd')
  const cwd = at === -1 ? process.cwd() : args[at + 1]
  const unknown = args.find(
    (a, i) => !['--cwd', '--all', '--json'].includes(a) && (at === -1 || i !== at + 1)
  )
  if (cwd === undefined || unknown !== undefined) {
    console.error(
      `sessions: ${cwd === undefined ? '--cwd needs a folder' : `unknown option ${unknown}`}\n\n${USAGE}`
    )
    return 2
  }
  try {
    const sources = new Sources({ home: rewindStudioHome() })
    const json = args.includes('--json')
    if (args.includes('--all')) {
      const projects = sources.projects()
      if (json) return print(projects)
      if (projects.length === 0) say('No sessions found.')
      for (const p of projects) {
        const by = p.folders.map((f) => `${f.source} ${f.sessions}`).join(', ')
        say(
          escapeControlCharsOneLine(
            `${p.lastActivity}  ${String(p.sessions).padStart(5)}  ${p.cwd}  (${by})`
          )
        )
      }
      return 0
    }
    const sessions = sources.workspaceSessions(resolve(cwd))
    if (json) {
      return print(
        sessions.map((s) => ({
          source: s.source,
          sessionId: s.sessionId,
          title: s.title === null ? null : maskSecrets(s.title),
          prompts: s.summary.prompts,
          createdAt: s.createdAt,
          lastActivity: s.lastActivity,
          file: s.file,
          problem: s.problem
        }))
      )
    }
    if (sessions.length === 0) say(`No sessions of ${resolve(cwd)} found.`)
    // One write for the whole list: a line each through console.log was a tenth of listing
    // 10,000 sessions (bench/session-list.ts). Each line is escaped as it is made (as say escapes),
    // so the list is written without a second pass over it.
    const lines: string[] = []
    for (const s of sessions) {
      const what =
        s.problem ?? (s.title === null ? null : maskSecrets(s.title)) ?? '(no prompt yet)'
      lines.push(
        escapeControlCharsOneLine(
          `${s.lastActivity}  ${s.source.padEnd(13)} ${String(s.summary.prompts).padStart(4)}  ${what}`
        ),
        escapeControlCharsOneLine(`    ${s.file}`)
      )
    }
    if (lines.length > 0) console.log(lines.join('\n'))
    return 0
  } catch (error) {
    return failWith(error)
  }
}

function print(value: unknown): number {
  console.log(escapeControlCharsInJson(JSON.stringify(value, null, 2)))
  return 0
}
