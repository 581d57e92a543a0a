// A session to start parallel runs from, made by the real `rewind-studio chat` with the scripted
// model (run-script.ts says what each prompt does). The script answers the runs too, and:
//   "many N":   a Bash command writing N files f1..fN (needs bypassPermissions).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { SessionStore } from '../../src/core/session/store'
import { type CliRun, runCli } from '../support/cli'
import { RUN_RULES } from './run-script'

export const SCRIPT = {
  rules: [
    ...RUN_RULES,
    ...[300, 1000].map((n) => ({
      match: `many ${n}`,
      responses: [
        [
          {
            type: 'tool_use',
            name: 'Bash',
            input: {
              command: `mkdir -p many && for i in $(seq 1 ${n}); do echo "run $i" > many/f$i.txt; done`
            }
          }
        ],
        [{ type: 'text', text: 'many done' }]
      ]
    }))
  ]
}

export interface Start {
  base: string
  workspace: string
  home: string
  file: string
  script: string
  cli(...args: string[]): Promise<CliRun>
}

/** A workspace (a git repository when `git`) with a two-turn session, its files as described. */
export async function startingPoint(git: boolean): Promise<Start> {
  const base = mkdtempSync(join(tmpdir(), 'rs-parallel-'))
  const workspace = join(base, 'ws')
  const home = join(base, 'home')
  mkdirSync(workspace)
  writeFileSync(join(workspace, 'keep.txt'), 'the user keeps this\n')
  if (git) {
    writeFileSync(join(workspace, '.gitignore'), 'ignored/\n')
    mkdirSync(join(workspace, 'ignored'))
    writeFileSync(join(workspace, 'ignored', 'big.bin'), 'ignored by git\n')
    gitIn(workspace, 'init', '-q', '-b', 'main')
    gitIn(workspace, 'add', '.')
    gitIn(workspace, 'commit', '-qm', 'first')
    // Uncommitted: a tracked file changed, an untracked one.
    writeFileSync(join(workspace, 'keep.txt'), 'the user keeps this, edited\n')
    writeFileSync(join(workspace, 'draft.txt'), 'not committed\n')
  }
  const script = join(base, 'script.json')
  writeFileSync(script, JSON.stringify(SCRIPT))
  const env = { REWIND_STUDIO_HOME: home }
  const chat = await runCli(
    [
      'chat',
      '--cwd',
      workspace,
      '--model',
      `scripted:${script}`,
      '--permission-mode',
      'acceptEdits'
    ],
    { input: 'setup notes\nsecond notes\n/exit\n', env }
  )
  expect(chat.code, chat.stderr).toBe(0)
  const file = SessionStore.latest(home, workspace) as string
  expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('v2\n')
  return { base, workspace, home, file, script, cli: (...args) => runCli(args, { env }) }
}

export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t'
    }
  })
}

/** Every file under `dir` (but .git) → sha256 of its content and its mtime: a user's files. */
export function snapshot(dir: string, { gitDir = false } = {}): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`
      if (entry.name === '.git' && !gitDir) continue
      if (entry.isDirectory()) walk(child)
      else {
        const abs = join(dir, child)
        out[child] =
          `${createHash('sha256').update(readFileSync(abs)).digest('hex')} ${lstatSync(abs).mtimeMs}`
      }
    }
  }
  walk(gitDir ? '.git' : '')
  return out
}

export interface RunJson {
  id: string
  state: string
  prompt: string
  files: string[]
  linesAdded: number
  linesRemoved: number
  tokens: number | null
  check: { command: string; exitCode: number | null; tail: string } | null
  error: string | null
  workspace: string | null
}

export function parseRuns(run: CliRun): RunJson[] {
  expect(run.code, run.stderr).toBe(0)
  return (JSON.parse(run.stdout) as { runs: RunJson[] }).runs
}

export function byPrompt(runs: RunJson[], prompt: string): RunJson {
  const found = runs.find((r) => r.prompt === prompt)
  if (found === undefined) throw new Error(`no run of "${prompt}"`)
  return found
}

export function readTree(file: string) {
  const store = SessionStore.open(file, { readOnly: true })
  store.close()
  return store.tree()
}
