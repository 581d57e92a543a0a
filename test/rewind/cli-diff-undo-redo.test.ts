// The CLI side of issue 12 in real child processes: `diff` between two nodes and between a node
// and the current files (text and --json), `rewind --undo` run again and again walking the
// timeline back, `rewind --redo`, and the chat's repeated /undo and /redo.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CompareView } from '../../src/shared/views'
import { chatIn, repoRoot, runCliSync, seedWorkspace } from '../support/cli'
import { type WorkspaceSession, newSession, seedFiles, seedTurns } from './fixture'

const cli = runCliSync

const open: WorkspaceSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => undefined)
})

/**
 *   1 add TIMEOUT ─┬─ 2 drop DEBUG + utils.py       abandoned
 *                  └─ 2' only utils.py               the leaf
 * Closed afterwards, so the CLI can take the writer lock.
 */
async function twoBranches() {
  const s = await newSession(seedFiles)
  open.push(s)
  const { second } = await seedTurns(s)
  await s.engine.rewind(second, 'both')
  s.prompt('only create utils.py')
  await s.write('utils.py', 'def helper():\n    return 1\n')
  s.reply('created')
  await s.close()
  return { s, second }
}

describe('cli diff', () => {
  it('compares two nodes by number and by id prefix: files with diffs, the conversations apart', async () => {
    const { s, second } = await twoBranches()
    const r = cli(s.home, 'diff', s.store.file, '--from', second.slice(0, 13), '--to', '2')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toContain('Compare drop DEBUG and create utils.py (A) → only create utils.py (B)')
    expect(r.out).toContain('2 file(s) differ:')
    expect(r.out).toContain('  modified config.py')
    expect(r.out).toContain('+DEBUG = True')
    expect(r.out).toContain('-    pass')
    expect(r.out).toContain('+    return 1')
    expect(r.out).toContain('❯ drop DEBUG and create utils.py')

    const json = cli(s.home, 'diff', s.store.file, '--from', '1', '--to', '2', '--json')
    const view = JSON.parse(json.out) as CompareView
    expect(view.files.map((f) => [f.path, f.change])).toEqual([['utils.py', 'added']])
    expect(view.files[0]?.diff).toContain('+    return 1')
    expect(view.conversation.a).toEqual([])
    expect(view.conversation.b.filter((e) => e.isPrompt).map((e) => e.content)).toEqual([
      'only create utils.py'
    ])
  })

  it('compares a node with the current files, a hand edit included, and writes nothing', async () => {
    const { s } = await twoBranches()
    s.hand('config.py', 'HAND EDIT\n')
    const log = readFileSync(s.store.file, 'utf8')
    const r = cli(s.home, 'diff', s.store.file, '--from', '2', '--to', 'current', '--json')
    expect(r.code).toBe(0)
    const view = JSON.parse(r.out) as CompareView
    expect(view.b).toEqual({ ref: 'current', title: 'Current files' })
    expect(view.files.map((f) => [f.path, f.change])).toEqual([['config.py', 'modified']])
    expect(view.files[0]?.diff).toContain('+HAND EDIT')
    expect(readFileSync(s.store.file, 'utf8')).toBe(log)
    expect(s.read('config.py')).toBe('HAND EDIT\n')
  })

  it('refuses bad arguments (exit 2) and unknown nodes (exit 1)', async () => {
    const { s } = await twoBranches()
    expect(cli(s.home, 'diff', s.store.file, '--from', '1').code).toBe(2)
    expect(cli(s.home, 'diff', s.store.file, '--from', 'current', '--to', '1').code).toBe(2)
    const missing = cli(s.home, 'diff', s.store.file, '--from', '9', '--to', '1')
    expect(missing.code).toBe(1)
    expect(missing.err).toMatch(/No turn 9/)
    expect(missing.err).not.toMatch(/\n\s+at /)
  })
})

describe('cli rewind --undo and --redo', () => {
  it('--undo run twice walks the timeline back, --redo does the last undone again', async () => {
    const { s } = await twoBranches()
    // Two actions in a row: a code-only rewind, then a conversation-only one.
    expect(cli(s.home, 'rewind', s.store.file, '--to', '2', '--mode', 'code').code).toBe(0)
    expect(s.read('utils.py')).toBeNull()
    s.hand('config.py', 'HAND EDIT\n')
    expect(cli(s.home, 'rewind', s.store.file, '--to', '1', '--mode', 'conversation').code).toBe(0)

    const u1 = cli(s.home, 'rewind', s.store.file, '--undo')
    expect(u1.code).toBe(0)
    expect(u1.out).toContain(
      'Undone: Rewind to before prompt 1 "add TIMEOUT = 30 to config.py" (conversation only).'
    )
    expect(s.read('config.py')).toBe('HAND EDIT\n')
    const u2 = cli(s.home, 'rewind', s.store.file, '--undo')
    expect(u2.code).toBe(0)
    expect(u2.out).toContain(
      'Undone: Rewind to before prompt 2 "only create utils.py" (code only).'
    )
    expect(s.read('utils.py')).toBe('def helper():\n    return 1\n')
    // The code-only rewind did not write config.py: the hand edit made after it stays.
    expect(s.read('config.py')).toBe('HAND EDIT\n')
    const u3 = cli(s.home, 'rewind', s.store.file, '--undo')
    expect(u3.code).toBe(1)
    expect(u3.err).toMatch(/Nothing to undo/)

    const r1 = cli(s.home, 'rewind', s.store.file, '--redo', '--json')
    expect(r1.code).toBe(0)
    expect(JSON.parse(r1.out)).toMatchObject({ delete: ['utils.py'] })
    expect(s.read('utils.py')).toBeNull()
    expect(cli(s.home, 'rewind', s.store.file, '--undo', '--redo').code).toBe(2)
  })
})

describe('chat /undo and /redo', () => {
  it('repeats /undo along the timeline and /redo brings the last one back', async () => {
    const { workspace, home } = seedWorkspace()
    const chat = chatIn(
      workspace,
      `scripted:${join(repoRoot, 'test/fixtures/seed-walkthrough.json')}`,
      { REWIND_STUDIO_HOME: home }
    )
    await chat('给 config.py 加一个 TIMEOUT = 30\n顺便把 DEBUG 删掉，再建一个 utils.py\n/exit\n')
    writeFileSync(join(workspace, 'notes.md'), 'mine\n')
    const run = await chat(
      '/rewind 2 code\n/rewind 1 code\n/undo\n/undo\n/redo\n/exit\n',
      '--continue'
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Undone: Rewind to before prompt 1')
    expect(run.stdout).toContain('Undone: Rewind to before prompt 2')
    expect(run.stdout).toContain('Redone: Rewind to before prompt 2')
    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n'
    )
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('mine\n')
  })
})
