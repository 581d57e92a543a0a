// Bringing another branch's files into this one (issue 31), on real files in a real session:
// base = the files where the branches part, ours = the workspace, theirs = that node's files;
// git merge-file for the text; the rewind engine's journaled apply; one action Undo reverses.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildMessages } from '../../src/core/agent/context'
import { type MergeWorkspace, prepareMerge, runMerge } from '../../src/core/merge/merge'
import { MergeError } from '../../src/core/merge/merge-plan'
import { listJournals } from '../../src/core/rewind/journal'
import { replayTimeline } from '../../src/core/rewind/timeline'
import type { FileChangeRecord, MergeRecord } from '../../src/core/session/records'
import { SessionStore } from '../../src/core/session/store'
import { type WorkspaceSession, sessionsClosedAfterEach } from '../rewind/fixture'

const { session } = sessionsClosedAfterEach()

function workspaceOf(s: WorkspaceSession): MergeWorkspace {
  return {
    tree: () => s.store.tree(),
    leafUuid: () => s.store.leafUuid,
    engine: s.engine,
    space: s.history
  }
}

/**
 * Turn 1 writes the base files; turn 2 (their branch) changes them one way; a rewind to before
 * turn 2, then turn 3 (ours) changes them another way. Returns the end of their branch.
 */
async function twoBranches(
  s: WorkspaceSession,
  base: Record<string, string | Buffer>,
  theirs: Record<string, string | Buffer | null>,
  ours: Record<string, string | Buffer | null>
): Promise<string> {
  s.prompt('write the base')
  for (const [path, text] of Object.entries(base)) await put(s, path, text)
  s.reply('base written')
  const second = s.prompt('their change')
  for (const [path, text] of Object.entries(theirs)) await put(s, path, text)
  const theirEnd = s.reply('their change made')
  await s.engine.rewind(second, 'both')
  s.prompt('our change')
  for (const [path, text] of Object.entries(ours)) await put(s, path, text)
  s.reply('our change made')
  return theirEnd
}

async function put(s: WorkspaceSession, path: string, content: string | Buffer | null) {
  if (content === null) {
    await s.bash(`rm -f '${path}'`)
    return
  }
  if (typeof content === 'string') return s.write(path, content)
  // Binary content through a command: Write takes text.
  await s.history.beforeCommand('Bash')
  writeFileSync(join(s.cwd, path), content)
  await s.history.afterCommand('Bash')
}

function logLines(s: WorkspaceSession): number {
  return readFileSync(s.store.file, 'utf8')
    .split('\n')
    .filter((l) => l !== '').length
}

const lines = (...l: string[]) => `${l.join('\n')}\n`

describe('merging another branch’s files', () => {
  it('merges both sides’ changes to one file, records it as its own turn, and undo takes it back', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'a.txt': lines('one', 'two', 'three', 'four', 'five') },
      { 'a.txt': lines('ONE', 'two', 'three', 'four', 'five'), 'new.txt': 'added there\n' },
      { 'a.txt': lines('one', 'two', 'three', 'four', 'FIVE') }
    )
    const leafBefore = s.store.leafUuid
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    expect(prepared.preview.files.map((f) => [f.path, f.change, f.status])).toEqual([
      ['a.txt', 'modified', 'clean'],
      ['new.txt', 'added', 'clean']
    ])
    // The preview wrote nothing.
    expect(s.read('a.txt')).toBe(lines('one', 'two', 'three', 'four', 'FIVE'))
    expect(s.read('new.txt')).toBeNull()

    const done = await runMerge(ws, prepared, {})
    expect(s.read('a.txt')).toBe(lines('ONE', 'two', 'three', 'four', 'FIVE'))
    expect(s.read('new.txt')).toBe('added there\n')
    const tree = s.store.tree()
    const merge = tree.get(done.uuid) as MergeRecord
    expect(merge.type).toBe('merge')
    expect(merge.parentUuid).toBe(leafBefore)
    expect(merge.fromUuid).toBe(theirEnd)
    expect(s.store.leafUuid).toBe(done.uuid)
    const changes = tree.fileChanges(done.uuid) as FileChangeRecord[]
    expect(changes.map((c) => [c.path, c.source])).toEqual([
      ['a.txt', 'merge'],
      ['new.txt', 'merge']
    ])
    // The model sees where it came from and what it changed.
    const seen = JSON.stringify(buildMessages(tree.activePath()))
    expect(seen).toContain(theirEnd)
    expect(seen).toContain('a.txt (modified, merged)')
    // One action on the timeline, which Undo reverses: files and conversation.
    expect(replayTimeline(tree).undoable?.kind).toBe('merge')
    await s.engine.undo()
    expect(s.read('a.txt')).toBe(lines('one', 'two', 'three', 'four', 'FIVE'))
    expect(s.read('new.txt')).toBeNull()
    expect(s.store.leafUuid).toBe(leafBefore)
    await s.engine.redo()
    expect(s.read('a.txt')).toBe(lines('ONE', 'two', 'three', 'four', 'FIVE'))
    expect(s.store.leafUuid).toBe(done.uuid)
  })

  it('changes nothing while a conflict has no resolution, then takes the side asked for', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'c.txt': lines('a', 'b', 'c'), 'clean.txt': 'x\n' },
      { 'c.txt': lines('a', 'THEIRS', 'c'), 'clean.txt': 'y\n' },
      { 'c.txt': lines('a', 'OURS', 'c') }
    )
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    const conflict = prepared.preview.files.find((f) => f.path === 'c.txt')
    expect(conflict).toMatchObject({ status: 'conflict', conflict: 'content', hunks: 1 })
    expect(conflict?.marked).toContain('<<<<<<< this branch')
    expect(conflict?.ours).toBe(lines('a', 'OURS', 'c'))
    expect(conflict?.theirs).toBe(lines('a', 'THEIRS', 'c'))
    const before = logLines(s)
    const journals = (await listJournals(s.history.paths.restores)).length
    await expect(runMerge(ws, prepared, {})).rejects.toThrow(
      /1 conflict without a resolution: c\.txt/
    )
    expect(s.read('c.txt')).toBe(lines('a', 'OURS', 'c'))
    expect(s.read('clean.txt')).toBe('x\n')
    expect(logLines(s)).toBe(before)
    expect((await listJournals(s.history.paths.restores)).length).toBe(journals)

    await runMerge(ws, prepared, { strategy: 'theirs' })
    expect(s.read('c.txt')).toBe(lines('a', 'THEIRS', 'c'))
    expect(s.read('clean.txt')).toBe('y\n')
  })

  it('takes an edited result for a conflict, and ours keeps this branch’s file', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'c.txt': lines('a', 'b', 'c'), 'd.txt': lines('1', '2') },
      { 'c.txt': lines('a', 'THEIRS', 'c'), 'd.txt': lines('1', 'two') },
      { 'c.txt': lines('a', 'OURS', 'c'), 'd.txt': lines('1', 'deux') }
    )
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    const done = await runMerge(ws, prepared, {
      resolutions: new Map([
        ['c.txt', { take: 'edited', content: Buffer.from(lines('a', 'BOTH', 'c')) }],
        ['d.txt', { take: 'ours' }]
      ])
    })
    expect(s.read('c.txt')).toBe(lines('a', 'BOTH', 'c'))
    expect(s.read('d.txt')).toBe(lines('1', 'deux'))
    const merge = s.store.tree().get(done.uuid) as MergeRecord
    expect(merge.files.map((f) => [f.path, f.resolution])).toEqual([
      ['c.txt', 'edited'],
      ['d.txt', 'ours']
    ])
  })

  it('names a file deleted on one side and changed on the other, and resolves it either way', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'gone-there.txt': 'base\n', 'gone-here.txt': 'base\n' },
      { 'gone-there.txt': null, 'gone-here.txt': 'changed there\n' },
      { 'gone-there.txt': 'changed here\n', 'gone-here.txt': null }
    )
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    expect(prepared.preview.files.map((f) => [f.path, f.change, f.conflict])).toEqual([
      ['gone-here.txt', 'modified', 'deleted-here'],
      ['gone-there.txt', 'deleted', 'deleted-there']
    ])
    await runMerge(ws, prepared, { strategy: 'theirs' })
    expect(s.read('gone-there.txt')).toBeNull()
    expect(s.read('gone-here.txt')).toBe('changed there\n')
    await s.engine.undo()
    expect(s.read('gone-there.txt')).toBe('changed here\n')
    expect(s.read('gone-here.txt')).toBeNull()
    await runMerge(ws, await prepareMerge(ws, { fromUuid: theirEnd, files: true }), {
      strategy: 'ours'
    })
    expect(s.read('gone-there.txt')).toBe('changed here\n')
    expect(s.read('gone-here.txt')).toBeNull()
  })

  it('names a binary file both changed as a conflict and takes a side whole', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'img.bin': Buffer.from([0, 1, 2, 3]) },
      { 'img.bin': Buffer.from([0, 9, 9, 9]) },
      { 'img.bin': Buffer.from([0, 7, 7, 7]) }
    )
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    expect(prepared.preview.files).toMatchObject([
      { path: 'img.bin', status: 'conflict', conflict: 'binary', ours: null, theirs: null }
    ])
    await runMerge(ws, prepared, { strategy: 'theirs' })
    expect(readFileSync(join(s.cwd, 'img.bin'))).toEqual(Buffer.from([0, 9, 9, 9]))
  })

  it('follows a rename there, merging the changes made here into the new path', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'old.txt': lines('a', 'b', 'c', 'd', 'e') },
      {},
      { 'old.txt': lines('a', 'b', 'c', 'd', 'E') }
    )
    // Their branch renamed the file: a second turn on it, after the fact, by a command.
    const s2 = s
    const leaf = s2.store.leafUuid
    const rename = await s2.engine.planSwitch(theirEnd)
    await s2.engine.apply(rename)
    s2.prompt('rename it')
    await s2.bash('mv old.txt new.txt')
    const renamedEnd = s2.reply('renamed')
    await s2.engine.apply(await s2.engine.planSwitch(leaf as string))
    expect(s2.read('old.txt')).toBe(lines('a', 'b', 'c', 'd', 'E'))
    const ws = workspaceOf(s2)
    const prepared = await prepareMerge(ws, { fromUuid: renamedEnd, files: true })
    expect(prepared.preview.files).toMatchObject([
      { path: 'new.txt', change: 'renamed', renamedFrom: 'old.txt', status: 'clean' }
    ])
    await runMerge(ws, prepared, {})
    expect(s2.read('old.txt')).toBeNull()
    expect(s2.read('new.txt')).toBe(lines('a', 'b', 'c', 'd', 'E'))
  })

  // Ten lines: a rename that edits one or two stays well over 50% similar.
  const ten = (edit: Record<number, string> = {}) =>
    lines(...Array.from({ length: 10 }, (_, n) => edit[n] ?? `line ${n} of the file`))

  it('finds a rename there that also edited the file, and merges the edits made here into it', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'old.txt': ten() },
      { 'new.txt': ten({ 1: 'THEIRS 1' }), 'old.txt': null },
      { 'old.txt': ten({ 8: 'OURS 8' }) }
    )
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    expect(prepared.preview.files).toMatchObject([
      {
        path: 'new.txt',
        change: 'renamed',
        renamedFrom: 'old.txt',
        status: 'clean',
        similarity: 90
      }
    ])
    const done = await runMerge(ws, prepared, {})
    expect(s.read('old.txt')).toBeNull()
    expect(s.read('new.txt')).toBe(ten({ 1: 'THEIRS 1', 8: 'OURS 8' }))
    const merge = s.store.tree().get(done.uuid) as MergeRecord
    expect(merge.files).toEqual([
      { path: 'new.txt', change: 'renamed', renamedFrom: 'old.txt', resolution: 'clean' }
    ])
  })

  it('brings their edits into a file this branch renamed and edited, under this branch’s name', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'old.txt': ten() },
      { 'old.txt': ten({ 1: 'THEIRS 1' }) },
      { 'mine.txt': ten({ 8: 'OURS 8' }), 'old.txt': null }
    )
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    expect(prepared.preview.files).toMatchObject([
      {
        path: 'mine.txt',
        change: 'modified',
        renamedHere: 'old.txt',
        status: 'clean',
        similarity: 90
      }
    ])
    const done = await runMerge(ws, prepared, {})
    expect(s.read('mine.txt')).toBe(ten({ 1: 'THEIRS 1', 8: 'OURS 8' }))
    expect(s.read('old.txt')).toBeNull()
    expect((s.store.tree().get(done.uuid) as MergeRecord).files).toEqual([
      { path: 'mine.txt', change: 'modified', renamedHere: 'old.txt', resolution: 'clean' }
    ])
    await s.engine.undo()
    expect(s.read('mine.txt')).toBe(ten({ 8: 'OURS 8' }))
  })

  it('merges a file both sides renamed and edited into this branch’s name, a conflict where the edits meet', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'old.txt': ten() },
      { 'theirs.txt': ten({ 1: 'THEIRS 1', 5: 'THEIRS 5' }), 'old.txt': null },
      { 'mine.txt': ten({ 5: 'OURS 5', 8: 'OURS 8' }), 'old.txt': null }
    )
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    expect(prepared.preview.files).toMatchObject([
      {
        path: 'mine.txt',
        renamedHere: 'old.txt',
        status: 'conflict',
        conflict: 'content',
        hunks: 1
      }
    ])
    expect(prepared.preview.files[0]?.marked).toContain(
      '<<<<<<< this branch\nOURS 5\n=======\nTHEIRS 5\n'
    )
    await runMerge(ws, prepared, { strategy: 'theirs' })
    expect(s.read('mine.txt')).toBe(ten({ 1: 'THEIRS 1', 5: 'THEIRS 5', 8: 'OURS 8' }))
    expect(s.read('theirs.txt')).toBeNull()
    expect(s.read('old.txt')).toBeNull()
  })

  it('keeps a deletion and an unrelated addition apart: under half the same is no rename', async () => {
    const s = await session()
    const theirEnd = await twoBranches(
      s,
      { 'old.txt': ten() },
      { 'other.txt': ten({ 0: 'a', 1: 'b', 2: 'c', 3: 'd', 4: 'e', 5: 'f' }), 'old.txt': null },
      {}
    )
    const prepared = await prepareMerge(workspaceOf(s), { fromUuid: theirEnd, files: true })
    expect(prepared.preview.files.map((f) => [f.path, f.change, f.status])).toEqual([
      ['old.txt', 'deleted', 'clean'],
      ['other.txt', 'added', 'clean']
    ])
  })

  it('cherry-picks one turn’s changes only', async () => {
    const s = await session()
    s.prompt('base')
    await s.write('x.txt', lines('1', '2', '3', '4', '5', '6'))
    s.reply('ok')
    const branchAt = s.store.leafUuid
    const t2 = s.prompt('first there')
    await s.write('y.txt', 'only the first turn\n')
    s.reply('ok')
    const t3 = s.prompt('second there')
    await s.write('x.txt', lines('1', '2', '3', '4', '5', 'SIX'))
    s.reply('ok')
    await s.engine.rewind(t2, 'both')
    expect(s.store.leafUuid).toBe(branchAt)
    s.prompt('here')
    await s.write('x.txt', lines('ONE', '2', '3', '4', '5', '6'))
    s.reply('ok')
    const ws = workspaceOf(s)
    const prepared = await prepareMerge(ws, { fromUuid: t3, turnUuid: t3, files: true })
    expect(prepared.preview.files.map((f) => f.path)).toEqual(['x.txt'])
    const done = await runMerge(ws, prepared, {})
    expect(s.read('x.txt')).toBe(lines('ONE', '2', '3', '4', '5', 'SIX'))
    expect(s.read('y.txt')).toBeNull()
    expect((s.store.tree().get(done.uuid) as MergeRecord).turnUuid).toBe(t3)
  })

  it('refuses a node on this branch and leaves no copy of the files in the data home', async () => {
    const s = await session()
    const theirEnd = await twoBranches(s, { 'a.txt': 'a\n' }, { 'a.txt': 'b\n' }, {})
    const ws = workspaceOf(s)
    const onPath = s.store.tree().activePath()[0]?.uuid as string
    await expect(prepareMerge(ws, { fromUuid: onPath, files: true })).rejects.toThrow(MergeError)
    await prepareMerge(ws, { fromUuid: theirEnd, files: true })
    const scratch = join(s.history.paths.root, 'merging')
    expect(existsSync(scratch) ? readdirSync(scratch) : []).toEqual([])
  })

  it('is recorded again by recovery when a crash came between the files and the record', async () => {
    const s = await session()
    const theirEnd = await twoBranches(s, { 'a.txt': 'a\n' }, { 'a.txt': 'b\n' }, {})
    const ws = workspaceOf(s)
    await runMerge(ws, await prepareMerge(ws, { fromUuid: theirEnd, files: true }), {})
    const file = s.store.file
    const merged = s.store.leafUuid
    await s.close()
    // The log as it was before the merge record: the journal says applied, the record is gone.
    const text = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
    const kept = text.filter((l) => !l.includes('"merge"'))
    writeFileSync(file, `${kept.join('\n')}\n`)
    const journals = await listJournals(s.history.paths.restores)
    const journal = journals.find((j) => j.kind === 'merge')
    expect(journal).toBeDefined()
    writeFileSync(
      join(s.history.paths.restores, `${journal?.id}.json`),
      JSON.stringify({ ...journal, state: 'applied' })
    )
    const store = SessionStore.open(file)
    const { openSession } = await import('../rewind/fixture')
    const again = await openSession(s, store)
    const notices = await again.engine.recover()
    expect(notices.join('\n')).toMatch(/merge .* was completed/)
    expect(store.leafUuid).toBe(merged)
    expect(
      store
        .tree()
        .fileChanges(merged as string)
        .map((c) => c.source)
    ).toEqual(['merge'])
    await again.close()
  })
})
