// Finding 5 (second half): "Backups are stored readable by all: another local user read a
// backed-up mode-600 `secret.env`. Create the data home 0700, blobs, packs, journals and
// settings 0600 [...]."
//
// A child process under umask 0 runs a session with a Read, a Write and a Bash command, a
// rewind, a settings change and a gc that packs blobs. Every folder it leaves in the data home
// is 0700 and every file 0600. A home an older version left open is tightened when opened.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot, runCli, seedWorkspace } from '../support/cli'

const modeOf = (path: string) => statSync(path).mode & 0o7777

/** Every folder and file under `dir` (itself included), as `relative path: octal mode`. */
function modes(dir: string): { folders: string[]; files: string[] } {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
  const shown = (path: string) => `${relative(dir, path) || '.'}: ${modeOf(path).toString(8)}`
  return {
    folders: [
      shown(dir),
      ...entries.filter((e) => e.isDirectory()).map((e) => shown(join(e.parentPath, e.name)))
    ],
    files: entries.filter((e) => e.isFile()).map((e) => shown(join(e.parentPath, e.name)))
  }
}

function workspaceWithSecret(): { workspace: string; home: string; script: string } {
  const { workspace, home } = seedWorkspace()
  writeFileSync(join(workspace, 'secret.env'), 'TOKEN=1\n')
  chmodSync(join(workspace, 'secret.env'), 0o600)
  // Enough files for the baseline to leave the 16 idle blobs gc packs.
  for (let i = 0; i < 20; i++) writeFileSync(join(workspace, `file${i}.txt`), `${i}\n`)
  const script = join(workspace, '..', 'script.json')
  const responses = [
    [{ type: 'tool_use', name: 'Read', input: { file_path: 'secret.env' } }],
    [{ type: 'tool_use', name: 'Write', input: { file_path: 'secret.env', content: 'TOKEN=2\n' } }],
    [{ type: 'tool_use', name: 'Bash', input: { command: 'echo made > new.txt' } }],
    [{ type: 'text', text: 'Rotated.' }]
  ]
  writeFileSync(script, JSON.stringify({ rules: [{ match: '', responses }] }))
  return { workspace, home, script }
}

describe('the data home is private', () => {
  it('every folder 0700 and every file 0600 after a session, a rewind and a gc, under umask 0', () => {
    const { workspace, home, script } = workspaceWithSecret()
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'data-home-child.ts'), home, workspace, script],
      { cwd: repoRoot, encoding: 'utf8' }
    )
    expect(child.stderr).toBe('')
    expect(child.stdout).toMatch(/DONE packed [1-9]/)

    const { folders, files } = modes(home)
    // What a session leaves: its log, blobs and a pack, the rewind's journal, the settings.
    for (const kind of [/\.jsonl: /, /\/blobs\/[0-9a-f]{2}\/[0-9a-f]{64}: /, /\.pack: /])
      expect(files.some((f) => kind.test(f))).toBe(true)
    for (const kind of [/\/restores\/[0-9a-f-]{36}\.json: /, /^settings\.json: /])
      expect(files.some((f) => kind.test(f))).toBe(true)
    expect(folders.filter((f) => !f.endsWith(': 700'))).toEqual([])
    expect(files.filter((f) => !f.endsWith(': 600'))).toEqual([])
  })

  it('tightens a home and session folder an older version left readable by others', async () => {
    const { workspace, home } = seedWorkspace()
    mkdirSync(join(home, 'sessions'), { recursive: true, mode: 0o755 })
    chmodSync(home, 0o755)
    chmodSync(join(home, 'sessions'), 0o755)
    const run = await runCli(
      ['chat', '--cwd', workspace, '--model', `scripted:${workspaceWithSecret().script}`],
      { input: '/exit\n', env: { REWIND_STUDIO_HOME: home } }
    )
    expect(run.code).toBe(0)
    expect(modeOf(home)).toBe(0o700)
    expect(modeOf(join(home, 'sessions'))).toBe(0o700)
    expect(modeOf(join(home, 'file-history'))).toBe(0o700)
  })
})
