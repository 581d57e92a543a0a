import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCliSync } from '../support/cli'
import { type WorkspaceSession, newSession, seedFiles, seedTurns } from './fixture'

const cli = runCliSync

const open: WorkspaceSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => undefined)
})

/** The seed's two turns, then the session is closed so the CLI can take its writer lock. */
async function seedSession(keepOpen = false) {
  const s = await newSession(seedFiles)
  open.push(s)
  await seedTurns(s)
  if (!keepOpen) await s.close()
  return s
}

describe('cli rewind', () => {
  it('refuses bad arguments with exit 2 and the usage', async () => {
    const s = await seedSession()
    const r = cli(s.home, 'rewind', s.store.file)
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/either --to N or --undo/)
    expect(cli(s.home, 'rewind', s.store.file, '--to', '1', '--mode', 'all').err).toMatch(
      /--mode must be both, conversation or code/
    )
  })

  it('exits 1 naming the range for a checkpoint that does not exist, changing nothing', async () => {
    const s = await seedSession()
    const r = cli(s.home, 'rewind', s.store.file, '--to', '3')
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/No checkpoint 3: the active path has checkpoints 1 to 2/)
    expect(s.read('utils.py')).not.toBeNull()
  })

  it('exits 1 when another process holds the session, changing nothing', async () => {
    const s = await seedSession(true)
    const r = cli(s.home, 'rewind', s.store.file, '--to', '2')
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/Nothing was changed/)
    expect(s.read('utils.py')).not.toBeNull()
  })

  it('--dry-run --json previews and changes nothing', async () => {
    const s = await seedSession()
    s.hand('config.py', 'HAND\n')
    const r = cli(s.home, 'rewind', s.store.file, '--to', '2', '--dry-run', '--json')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toEqual({
      restore: ['config.py'],
      delete: ['utils.py'],
      recreate: [],
      outsideChanges: ['config.py']
    })
    expect(s.read('config.py')).toBe('HAND\n')
    expect(s.read('utils.py')).not.toBeNull()
  })

  it('--dry-run lists the files; --diff adds their diffs', async () => {
    const s = await seedSession()
    const listed = cli(s.home, 'rewind', s.store.file, '--to', '2', '--dry-run')
    expect(listed.code).toBe(0)
    expect(listed.out).toContain('⎿ restore config.py')
    expect(listed.out).not.toContain('+DEBUG = True')
    const diffs = cli(s.home, 'rewind', s.store.file, '--to', '2', '--dry-run', '--diff')
    expect(diffs.code).toBe(0)
    expect(diffs.out).toContain('+DEBUG = True')
    expect(diffs.out).toContain('-def helper():')
    expect(diffs.out).toContain('Dry run: nothing was changed.')
    expect(s.read('utils.py')).not.toBeNull()
    expect(cli(s.home, 'rewind', s.store.file, '--undo', '--diff').code).toBe(2)
  })

  it('rewinds, then --undo puts everything back', async () => {
    const s = await seedSession()
    const r = cli(s.home, 'rewind', s.store.file, '--to', '2')
    expect(r.code).toBe(0)
    expect(r.out).toContain('⎿ restore config.py')
    expect(r.out).toContain('⎿ delete (created after the checkpoint) utils.py')
    expect(r.out).toContain('Prompt to send again: drop DEBUG and create utils.py')
    expect(s.read('config.py')).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    expect(s.read('utils.py')).toBeNull()
    const u = cli(s.home, 'rewind', s.store.file, '--undo', '--json')
    expect(u.code).toBe(0)
    expect(JSON.parse(u.out)).toMatchObject({ restore: ['config.py'], recreate: ['utils.py'] })
    expect(s.read('config.py')).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    expect(cli(s.home, 'rewind', s.store.file, '--undo').code).toBe(1)
  })

  it('undoes a --cwd rewind only in that folder, never in the session’s workspace', async () => {
    const s = await seedSession()
    const copy = join(s.base, 'copy')
    cpSync(s.cwd, copy, { recursive: true })
    writeFileSync(join(copy, 'config.py'), 'EDITED IN THE COPY\n')
    expect(cli(s.home, 'rewind', s.store.file, '--to', '2', '--cwd', copy).code).toBe(0)
    const u = cli(s.home, 'rewind', s.store.file, '--undo')
    expect(u.code).toBe(1)
    expect(u.err).toContain(`--cwd ${copy}`)
    expect(s.read('config.py')).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    expect(cli(s.home, 'rewind', s.store.file, '--undo', '--cwd', copy).code).toBe(0)
    expect(readFileSync(join(copy, 'config.py'), 'utf8')).toBe('EDITED IN THE COPY\n')
  })

  it('du lists the session; gc --dry-run prunes nothing young', async () => {
    const s = await seedSession()
    const du = cli(s.home, 'du', '--cwd', s.cwd, '--json')
    expect(du.code).toBe(0)
    const [usage] = JSON.parse(du.out) as {
      sessions: { sessionId: string; checkpoints: number }[]
    }[]
    expect(usage?.sessions).toEqual([
      expect.objectContaining({ sessionId: s.store.sessionId, checkpoints: 2 })
    ])
    const gc = cli(s.home, 'gc', '--cwd', s.cwd, '--dry-run', '--json')
    expect(gc.code).toBe(0)
    expect(JSON.parse(gc.out)).toEqual([expect.objectContaining({ deletedBlobs: 0 })])
  })
})
