// Finding 8 (second half): "Reading a FIFO hangs the turn for good and the process keeps the
// writer lock after SIGTERM: read only regular files, every tool abortable, SIGTERM always
// releases the lock."
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lockPath } from '../../src/core/session/lock'
import { repoRoot, runCli, seedWorkspace } from '../support/cli'

function scriptFile(rules: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-script-')), 'script.json')
  writeFileSync(file, JSON.stringify({ rules }))
  return `scripted:${file}`
}

describe('a FIFO in the workspace', () => {
  it('is refused by Read, Edit and Write and skipped by Grep; the turn ends', async () => {
    const { workspace, home } = seedWorkspace()
    execFileSync('mkfifo', [join(workspace, 'pipe')])
    const model = scriptFile([
      {
        match: 'pipe',
        responses: [
          [{ type: 'tool_use', name: 'Read', input: { file_path: 'pipe' } }],
          [
            {
              type: 'tool_use',
              name: 'Edit',
              input: { file_path: 'pipe', old_string: 'a', new_string: 'b' }
            }
          ],
          [{ type: 'tool_use', name: 'Write', input: { file_path: 'pipe', content: 'x' } }],
          [{ type: 'tool_use', name: 'Grep', input: { pattern: 'x', path: 'pipe' } }],
          [{ type: 'text', text: 'the pipe stays unread' }]
        ]
      }
    ])
    const run = await runCli(
      ['chat', '--cwd', workspace, '--model', model, '--permission-mode', 'bypassPermissions'],
      { input: 'read the pipe\n', env: { REWIND_STUDIO_HOME: home } }
    )
    const refusal =
      'pipe is a FIFO (named pipe), not a regular file; the file tools read regular files only.'
    expect(run.stdout).toContain(`✘ Read -> ${refusal}`)
    expect(run.stdout).toContain(`✘ Edit -> ${refusal}`)
    expect(run.stdout).toContain(`✘ Write -> ${refusal}`)
    expect(run.stdout).toContain('✔ Grep -> No matches found')
    expect(run.stdout).toContain('● the pipe stays unread')
    expect(run.code).toBe(0)
  })
})

describe('the writer lock', () => {
  it('is released when a process stuck in a read exits on SIGTERM', async () => {
    const { workspace, home } = seedWorkspace()
    const fifo = join(mkdtempSync(join(tmpdir(), 'rs-fifo-')), 'never-written')
    execFileSync('mkfifo', [fifo])
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'test/support/stuck-writer.ts'), home, workspace, fifo],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] }
    )
    try {
      const sessionFile = await new Promise<string>((resolve) => {
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          const match = /WRITING (\S+)\n/.exec(out)
          if (match?.[1] !== undefined) resolve(match[1])
        })
      })
      expect(existsSync(lockPath(sessionFile))).toBe(true)
      child.kill('SIGTERM')
      // The process lingers (Node waits for the thread blocked on the FIFO before it is gone),
      // its pid alive: only the release on exit frees the session.
      while (existsSync(lockPath(sessionFile))) await new Promise((r) => setTimeout(r, 50))
    } finally {
      child.kill('SIGKILL')
    }
  })
})
