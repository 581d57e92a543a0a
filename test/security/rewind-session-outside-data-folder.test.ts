// Finding 4 of the hardening review: "`rewind FILE` acts wherever the file's header says. A
// hand-made session file with `"cwd": "/"` deletes any file. Refuse a session file outside the
// data folder for its workspace unless `--cwd` is given." (The root and home workspaces are
// rewind-root-workspace-refused.test.ts; here the header names an ordinary project.)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sessionsDir } from '../../src/core/session/paths'
import { runCli } from '../support/cli'
import { handMadeSession, placeIn } from '../support/hand-made-session'

/** A user's project holding precious.txt, and the data folder of the user's Rewind Studio. */
function victim() {
  const base = mkdtempSync(join(tmpdir(), 'rs-victim-'))
  const project = join(base, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'precious.txt'), 'months of work\n')
  return { project, home: join(base, 'home') }
}

describe('rewind FILE with a session file from outside the data folder', () => {
  it('is refused unless --cwd names the folder, and nothing is deleted', async () => {
    const { project, home } = victim()
    const { file } = handMadeSession(project, 'precious.txt', 'months of work\n')
    const run = await runCli(['rewind', file, '--to', '1'], { env: { REWIND_STUDIO_HOME: home } })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('is not in the sessions folder of the workspace its header names')
    expect(run.stderr).toContain('--cwd DIR')
    expect(run.stderr).toContain('Nothing was changed')
    expect(readFileSync(join(project, 'precious.txt'), 'utf8')).toBe('months of work\n')
  })

  it("is refused in another workspace's sessions folder too (the header must match the folder)", async () => {
    const { project, home } = victim()
    const { file } = handMadeSession(project, 'precious.txt', 'months of work\n')
    const elsewhere = placeIn(sessionsDir(home, join(project, '..', 'other')), file)
    const run = await runCli(['rewind', elsewhere, '--to', '1'], {
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('--cwd DIR')
    expect(existsSync(join(project, 'precious.txt'))).toBe(true)
  })

  it('is accepted in the sessions folder of its workspace, or with --cwd (the user names the folder)', async () => {
    const { project, home } = victim()
    const { file } = handMadeSession(project, 'precious.txt', 'months of work\n')
    const env = { REWIND_STUDIO_HOME: home }
    const own = placeIn(sessionsDir(home, project), file)
    for (const args of [
      ['rewind', own, '--to', '1', '--dry-run', '--json'],
      ['rewind', file, '--to', '1', '--cwd', project, '--dry-run', '--json']
    ]) {
      const run = await runCli(args, { env })
      expect(run.code, run.stderr).toBe(0)
      expect(JSON.parse(run.stdout)).toMatchObject({ delete: ['precious.txt'] })
    }
    expect(existsSync(join(project, 'precious.txt'))).toBe(true)
  })
})
