// Rescue restores (issue 14): "A Claude Code snapshot names the files it tracks by any path the
// transcript holds: relative with `..`, absolute (anywhere), inside .git. A restore from Claude
// Code's backups must touch only files of the session's own workspace, rebased onto the folder it
// restores into, and refuse any other path, naming it, before anything changes."
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import {
  copyFixture,
  fingerprint,
  readLines,
  relocateToWorkspace,
  writeLines
} from '../foreign/cc-fixtures'

/** The session with `path` (null backup: "did not exist, delete it") in prompt 2's snapshot. */
function sessionTracking(path: (workspace: string) => string, cwd?: (workspace: string) => string) {
  const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
  const lines = readLines(cc.file)
  const prompt = lines.find((r) => r.type === 'user' && JSON.stringify(r).includes('instead write'))
  for (const r of lines) {
    if (cwd !== undefined && typeof r.cwd === 'string') r.cwd = cwd(cc.workspace)
    const snapshot = r.snapshot as {
      messageId?: unknown
      trackedFileBackups?: Record<string, unknown>
    }
    if (r.type === 'file-history-snapshot' && snapshot.messageId === prompt?.uuid) {
      snapshot.trackedFileBackups = {
        ...snapshot.trackedFileBackups,
        [path(cc.workspace)]: {
          backupFileName: null,
          version: 1,
          backupTime: '2026-11-30T21:46:55.118Z'
        }
      }
    }
  }
  writeLines(cc.file, lines)
  return cc
}

describe('a rescue restore whose snapshot names a path outside the workspace', () => {
  it.each([
    ['relative, climbing out', (ws: string) => `../${ws.split('/').at(-1)}-outside/precious.txt`],
    ['absolute, elsewhere', (ws: string) => `${dirname(ws)}/elsewhere/precious.txt`],
    ['in a .git folder', () => '.git/config']
  ])('%s: refused before anything changes, naming the path', async (_, path) => {
    const cc = sessionTracking(path)
    const target = resolve(cc.workspace, path(cc.workspace))
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, 'months of work\n')
    const before = fingerprint(cc.workspace)

    const run = await runCli(['rewind', cc.file, '--to', '2'], { env: cc.env })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      `Claude Code's snapshot names ${JSON.stringify(path(cc.workspace))}`
    )
    expect(run.stderr).toContain('Nothing was changed')
    expect(readFileSync(target, 'utf8')).toBe('months of work\n')
    // The files the session did track are not restored either: all or nothing.
    expect(fingerprint(cc.workspace)).toEqual(before)
  })

  it('an absolute path outside the session’s folder but inside the one restored into is refused', async () => {
    // The session recorded <ws>/inner as its workspace and tracked <ws>/precious.txt; restoring
    // into <ws> must not read that as a file of the session's workspace.
    const cc = sessionTracking(
      (ws) => `${ws}/precious.txt`,
      (ws) => `${ws}/inner`
    )
    mkdirSync(join(cc.workspace, 'inner'))
    writeFileSync(join(cc.workspace, 'precious.txt'), 'months of work\n')
    const run = await runCli(['rewind', cc.file, '--to', '2', '--cwd', cc.workspace], {
      env: cc.env
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain("outside the session's workspace")
    expect(existsSync(join(cc.workspace, 'precious.txt'))).toBe(true)
  })
})
