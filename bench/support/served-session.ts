// A workspace holding a generated session of N turns (test/session/synthetic.ts) under a
// temporary data home, and `rewind-studio serve` on it: what the UI benchmarks open in Chromium.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sessionFileName, sessionsDir } from '../../src/core/session/paths'
import { writeSyntheticSession } from '../../test/session/synthetic'

const SYNTHETIC_SESSION_ID = '01900000-0000-7000-8000-000000000000'

/**
 * The prompts of a session file: user records whose content is text (a tool's result is a user
 * record too, its content a list of blocks). Counted from the records, so a label says what the
 * session holds.
 */
export function promptsIn(file: string): number {
  let prompts = 0
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"type":"user"')) continue
    const record = JSON.parse(line) as { type?: unknown; message?: { content?: unknown } }
    if (record.type === 'user' && typeof record.message?.content === 'string') prompts++
  }
  return prompts
}

/**
 * A workspace under `root` whose latest session has `turns` prompts and `branches` rewinds spread
 * evenly over them (one every 40 turns by default), each leaving its last three turns as a branch
 * off the active path.
 */
export function workspaceWith(
  root: string,
  home: string,
  turns: number,
  branches = Math.floor(turns / 40)
): { cwd: string; turns: number; branches: number; file: string } {
  const cwd = join(root, `ws-${turns}-${branches}`)
  mkdirSync(cwd, { recursive: true })
  writeFileSync(join(cwd, 'README.md'), 'bench workspace\n')
  const dir = sessionsDir(home, cwd)
  mkdirSync(dir, { recursive: true })
  // The synthetic writer's own session id (a file name must hold a hex id to be listed); its
  // header names the workspace, whose file history the studio opens.
  const file = join(dir, sessionFileName('2026-01-01T00:00:00.000Z', SYNTHETIC_SESSION_ID))
  writeSyntheticSession(file, Infinity, 1, { cwd, branches, turns })
  const written = promptsIn(file)
  if (written !== turns) throw new Error(`the session holds ${written} prompts, not ${turns}`)
  return { cwd, turns: written, branches, file }
}

export function serve(home: string, cwd: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('node', ['bin/rewind-studio.mjs', 'serve', '--cwd', cwd], {
    env: { ...process.env, REWIND_STUDIO_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const url = /https?:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(output)?.[0]
      if (url !== undefined) resolve({ url, child })
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${output}`)))
  })
}
