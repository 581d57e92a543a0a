// A workspace holding a generated session of about N turns (test/session/synthetic.ts) under a
// temporary data home, and `rewind-studio serve` on it: what the UI benchmarks open in Chromium.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sessionFileName, sessionsDir } from '../../src/core/session/paths'
import { writeSyntheticSession } from '../../test/session/synthetic'

const SYNTHETIC_SESSION_ID = '01900000-0000-7000-8000-000000000000'

function promptsIn(file: string): number {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"user"') && line.includes('"content":"')).length
}

/**
 * A workspace under `root` whose latest session has about `turns` prompts (sized by bytes), a
 * rewind every `rewindEvery` turns leaving a branch.
 */
export function workspaceWith(
  root: string,
  home: string,
  turns: number,
  rewindEvery = 40
): { cwd: string; turns: number; file: string } {
  const cwd = join(root, `ws-${turns}-${rewindEvery}`)
  mkdirSync(cwd, { recursive: true })
  writeFileSync(join(cwd, 'README.md'), 'bench workspace\n')
  const dir = sessionsDir(home, cwd)
  mkdirSync(dir, { recursive: true })
  const pilot = join(root, 'pilot.jsonl')
  writeSyntheticSession(pilot, 1024 * 1024)
  const bytesPerTurn = (1024 * 1024) / promptsIn(pilot)
  // The synthetic writer's own session id (a file name must hold a hex id to be listed); its
  // header names the workspace, whose file history the studio opens.
  const file = join(dir, sessionFileName('2026-01-01T00:00:00.000Z', SYNTHETIC_SESSION_ID))
  writeSyntheticSession(file, Math.round(bytesPerTurn * turns), 1, { cwd, rewindEvery })
  return { cwd, turns: promptsIn(file), file }
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
