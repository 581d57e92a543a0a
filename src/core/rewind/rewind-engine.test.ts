import { existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sha256 } from '../files/blob-store'
import { RewindError } from './rewind-engine'
import { checkpointAt } from './checkpoint-at'
import {
  openSession,
  seedFiles,
  seedTurns,
  sessionsClosedAfterEach
} from '../../../test/rewind/fixture'

const { session, track } = sessionsClosedAfterEach()

/** The seed walk-through: two turns, the second edits config.py and creates utils.py. */
async function seed() {
  const s = await session(seedFiles)
  const { second } = await seedTurns(s)
  return { s, second }
}

describe('rewind: refusals change nothing', () => {
  it('refuses a checkpoint that is not on the active path', async () => {
    const { s } = await seed()
    await expect(s.engine.planRewind('no-such-uuid', 'both')).rejects.toThrow(RewindError)
    expect(() => checkpointAt(s.store, 3)).toThrow(
      'No checkpoint 3: the active path has checkpoints 1 to 2'
    )
  })

  it('refuses an index path that escapes the workspace, naming it, and changes nothing', async () => {
    const { s, second } = await seed()
    writeFileSync(join(s.base, 'outside.txt'), 'precious')
    s.store.appendFileChange({
      checkpointUuid: second,
      path: '../outside.txt',
      before: sha256(Buffer.from('evil')),
      after: null,
      source: 'Write'
    })
    const leaf = s.store.leafUuid
    await expect(s.engine.rewind(second, 'both')).rejects.toThrow('"../outside.txt"')
    expect(s.read('config.py')).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    expect(s.read('utils.py')).not.toBeNull()
    expect(s.store.leafUuid).toBe(leaf)
  })

  it('refuses an index path through a symlink that leads outside, changing nothing', async () => {
    const { s, second } = await seed()
    mkdirSync(join(s.base, 'elsewhere'))
    symlinkSync(join(s.base, 'elsewhere'), join(s.cwd, 'link'))
    s.store.appendFileChange({
      checkpointUuid: second,
      path: 'link/planted.txt',
      before: sha256(Buffer.from('evil')),
      after: null,
      source: 'Bash'
    })
    await expect(s.engine.rewind(second, 'code')).rejects.toThrow(/"link\/planted.txt".*symlink/)
    expect(existsSync(join(s.base, 'elsewhere', 'planted.txt'))).toBe(false)
    expect(s.read('utils.py')).not.toBeNull()
  })

  it('has nothing to undo before any rewind', async () => {
    const { s } = await seed()
    await expect(s.engine.undo()).rejects.toThrow(/Nothing to undo/)
  })
})

describe('rewind modes', () => {
  it('lists checkpoints with how many files each changed', async () => {
    const { s } = await seed()
    expect(
      s.store
        .tree()
        .checkpoints()
        .map((c) => [c.index, c.prompt, c.filesChanged])
    ).toEqual([
      [1, 'add TIMEOUT = 30 to config.py', 1],
      [2, 'drop DEBUG and create utils.py', 2]
    ])
  })

  it('both: restores config.py, deletes utils.py, moves the leaf, offers the prompt again', async () => {
    const { s, second } = await seed()
    const plan = await s.engine.planRewind(second, 'both')
    expect(plan.preview.restore.map((f) => f.path)).toEqual(['config.py'])
    expect(plan.preview.restore[0]?.diff).toContain('+DEBUG = True')
    expect(plan.preview.delete.map((f) => f.path)).toEqual(['utils.py'])
    expect(plan.preview.messagesKept).toBe(2)
    const result = await s.engine.apply(plan)
    expect(result).toEqual({
      restored: ['config.py'],
      deleted: ['utils.py'],
      recreated: [],
      prefill: 'drop DEBUG and create utils.py'
    })
    expect(s.read('config.py')).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    expect(s.read('utils.py')).toBeNull()
    expect(s.store.tree().activePath()).toHaveLength(2)
    expect(s.store.tree().checkpoints()).toHaveLength(1)
  })

  it('conversation: moves the leaf and leaves every file alone', async () => {
    const { s, second } = await seed()
    const result = await s.engine.rewind(second, 'conversation')
    expect(result).toMatchObject({ restored: [], deleted: [], recreated: [] })
    expect(result.prefill).toBe('drop DEBUG and create utils.py')
    expect(s.read('utils.py')).not.toBeNull()
    expect(s.store.tree().checkpoints()).toHaveLength(1)
  })

  it('code: restores the files, keeps the leaf, and a later rewind still knows the state', async () => {
    const { s, second } = await seed()
    const leaf = s.store.leafUuid
    const result = await s.engine.rewind(second, 'code')
    expect(result).toEqual({
      restored: ['config.py'],
      deleted: ['utils.py'],
      recreated: [],
      prefill: null
    })
    expect(s.store.leafUuid).toBe(leaf)
    // The code-only restore is in the log: rewinding to 1 now restores config.py's original.
    const first = checkpointAt(s.store, 1)
    await s.engine.rewind(first, 'code')
    expect(s.read('config.py')).toBe('DEBUG = True\nHOST = "localhost"\n')
    expect(s.read('utils.py')).toBeNull()
  })

  it('does not touch a file already at its target (its timestamps stay)', async () => {
    const { s, second } = await seed()
    const before = 'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n'
    s.hand('config.py', before)
    const mtime = statSync(join(s.cwd, 'config.py')).mtimeMs
    const result = await s.engine.rewind(second, 'code')
    expect(result.restored).toEqual([])
    expect(statSync(join(s.cwd, 'config.py')).mtimeMs).toBe(mtime)
  })
})

describe('rewind: Bash changes and files nobody asked it to touch', () => {
  it('undoes sed -i, mv, rm and a new file in a new folder', async () => {
    const s = await session({ 'a.txt': 'hello\n', 'b.txt': 'move me\n', 'c.txt': 'delete me\n' })
    s.prompt('shuffle files')
    await s.bash(
      "sed -i 's/hello/bye/' a.txt && mv b.txt moved.txt && rm c.txt && mkdir -p new/deep && echo hi > new/deep/f.txt"
    )
    const result = await s.engine.rewind(checkpointAt(s.store, 1), 'both')
    expect(result).toMatchObject({
      restored: ['a.txt'],
      deleted: ['moved.txt', 'new/deep/f.txt'],
      recreated: ['b.txt', 'c.txt']
    })
    expect([s.read('a.txt'), s.read('b.txt'), s.read('c.txt')]).toEqual([
      'hello\n',
      'move me\n',
      'delete me\n'
    ])
    expect([s.read('moved.txt'), s.read('new/deep/f.txt')]).toEqual([null, null])
  })

  it('keeps a file the user created between turns, and one they changed that the agent never did', async () => {
    const { s } = await seed()
    s.hand('notes.md', 'my notes')
    s.hand('README.md', 'edited by hand')
    await s.engine.rewind(checkpointAt(s.store, 1), 'both')
    expect(s.read('notes.md')).toBe('my notes')
    expect(s.read('README.md')).toBe('edited by hand')
    expect(s.read('config.py')).toBe('DEBUG = True\nHOST = "localhost"\n')
  })
})

describe('undo and outside changes', () => {
  it('flags a hand edit in the preview, and undo puts it back exactly', async () => {
    const { s, second } = await seed()
    s.hand('config.py', 'HAND EDIT\n')
    const leaf = s.store.leafUuid
    const plan = await s.engine.planRewind(second, 'both')
    expect(plan.preview.restore).toEqual([
      expect.objectContaining({ path: 'config.py', outsideChange: true })
    ])
    expect(plan.preview.delete).toEqual([
      expect.objectContaining({ path: 'utils.py', outsideChange: false })
    ])
    await s.engine.apply(plan)
    expect((await s.engine.timeline()).undoable).not.toBeNull()
    const undone = await s.engine.undo()
    expect(undone).toMatchObject({ restored: ['config.py'], recreated: ['utils.py'] })
    expect(s.read('config.py')).toBe('HAND EDIT\n')
    expect(s.read('utils.py')).toBe('def helper():\n    pass\n')
    expect(s.store.leafUuid).toBe(leaf)
    await expect(s.engine.undo()).rejects.toThrow(/Nothing to undo/)
  })

  it('cannot undo once the conversation moved on', async () => {
    const { s, second } = await seed()
    await s.engine.rewind(second, 'both')
    s.prompt('only create utils.py')
    expect((await s.engine.timeline()).undoable).toBeNull()
  })
})

describe('branch switch', () => {
  it('brings back the abandoned branch’s files and removes the current branch’s', async () => {
    const { s, second } = await seed()
    const oldLeaf = s.store.leafUuid ?? ''
    await s.engine.rewind(second, 'both')
    s.prompt('only create helpers.py')
    await s.write('helpers.py', 'x = 1\n')
    s.reply('ok')
    const plan = await s.engine.planSwitch(oldLeaf)
    expect(plan.preview.restore.map((f) => f.path)).toEqual(['config.py'])
    expect(plan.preview.recreate.map((f) => f.path)).toEqual(['utils.py'])
    expect(plan.preview.delete.map((f) => f.path)).toEqual(['helpers.py'])
    await s.engine.apply(plan)
    expect(s.read('config.py')).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    expect(s.read('utils.py')).toBe('def helper():\n    pass\n')
    expect(s.read('helpers.py')).toBeNull()
    expect(s.store.leafUuid).toBe(oldLeaf)
  })
})

describe('two sessions in one workspace', () => {
  it('warns the second and leaves alone a file the other changed since', async () => {
    const { s, second } = await seed()
    const other = await openSession({ base: s.base, cwd: s.cwd, home: s.home })
    track(other)
    expect(other.history.notices.join('\n')).toMatch(/Another session/)
    other.prompt('tweak utils')
    await other.write('utils.py', 'def helper():\n    return 2\n')
    const plan = await s.engine.planRewind(second, 'both')
    expect(plan.preview.conflicts).toEqual(['utils.py'])
    expect(plan.preview.delete).toEqual([])
    await s.engine.apply(plan)
    expect(s.read('utils.py')).toBe('def helper():\n    return 2\n')
    expect(s.read('config.py')).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
  })
})
