// Issue 29, item 6: "a rewind leaves behind the empty folders the session had created". The
// agent writes gen/a.txt … in a new folder gen/; rewinding to before that removed the files and
// left gen/ (and gen/sub/deep/) empty. A rewind (and a code-only one) now removes the folders the
// session made that it leaves empty, never one holding anything; undo makes them again.
//
// Real git repository, the agent's real Write and Bash tools, real file history and rewind.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { pendingJournal, saveJournal } from '../../src/core/rewind/journal'
import { fileChangeRecords } from '../../src/core/rewind/other-sessions'
import { SessionStore } from '../../src/core/session/store'
import { runCliSync } from '../support/cli'
import { type ToolSession, openToolSession } from '../support/tool-session'
import { openSession } from './fixture'

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})
async function session(files: Record<string, string> = {}): Promise<ToolSession> {
  const s = await openToolSession({ files: { 'README.md': 'hi\n', ...files } })
  open.push(s)
  return s
}

const isFolder = (s: { cwd: string }, rel: string) => existsSync(join(s.cwd, rel))

/** Every folder under the workspace but .git, sorted: what a rewind must leave as it found. */
function folders(cwd: string, dir = ''): string[] {
  const found: string[] = []
  for (const entry of readdirSync(join(cwd, dir), { withFileTypes: true })) {
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`
    if (!entry.isDirectory() || entry.name === '.git') continue
    found.push(rel, ...folders(cwd, rel))
  }
  return found.sort()
}

describe('a rewind past Write into new folders', () => {
  it('removes the folders it made, deepest first; undo makes them again, redo removes them', async () => {
    const s = await session({ 'src/main.c': 'int main;\n', 'keep/.gitkeep': '' })
    const before = folders(s.cwd)
    s.prompt('generate')
    for (const name of ['a', 'b', 'z']) await s.write(`gen/${name}.txt`, `${name}\n`)
    await s.write('gen/sub/deep/c.txt', 'c\n')
    await s.write('keep/new/d.txt', 'd\n')
    s.reply('done')
    expect(isFolder(s, 'gen/sub/deep')).toBe(true)

    const { result } = await s.rewindTo(1)
    expect(folders(s.cwd)).toEqual(before)
    expect(result.removedFolders).toEqual(['gen', 'gen/sub', 'gen/sub/deep', 'keep/new'])
    expect(s.read('keep/.gitkeep')?.toString()).toBe('')
    // The journal keeps them before its state, which stays last (recovery reads only the end).
    const [journal] = readdirSync(s.history.paths.restores).filter((n) => n.endsWith('.json'))
    const text = readFileSync(join(s.history.paths.restores, journal ?? ''), 'utf8')
    expect(text).toMatch(/"removeFolders":\["gen","gen\/sub","gen\/sub\/deep","keep\/new"\]/)
    expect(text).toMatch(/"state":"recorded","createdAt":"[^"]*"\}$/)

    const undone = await s.engine.undo()
    expect(undone.madeFolders).toEqual(['gen', 'gen/sub', 'gen/sub/deep', 'keep/new'])
    expect(s.read('gen/sub/deep/c.txt')?.toString()).toBe('c\n')
    expect(s.read('gen/z.txt')?.toString()).toBe('z\n')
    expect(s.read('keep/new/d.txt')?.toString()).toBe('d\n')

    await s.engine.redo()
    expect(folders(s.cwd)).toEqual(before)
  })

  it('keeps a made folder that holds a file put there since, and the file', async () => {
    const s = await session()
    s.prompt('generate')
    await s.write('gen/sub/a.txt', 'a\n')
    s.reply('done')
    writeFileSync(join(s.cwd, 'gen/notes.txt'), 'mine\n')

    await s.rewindTo(1)
    expect(s.read('gen/sub/a.txt')).toBeNull()
    expect(isFolder(s, 'gen/sub')).toBe(false)
    expect(readFileSync(join(s.cwd, 'gen/notes.txt'), 'utf8')).toBe('mine\n')
  })

  it('in a code-only rewind too', async () => {
    const s = await session()
    s.prompt('generate')
    await s.write('gen/sub/a.txt', 'a\n')
    s.reply('done')
    await s.engine.apply(await s.engine.planRewind(checkpointAt(s.store, 1), 'code'))
    expect(isFolder(s, 'gen')).toBe(false)
    await s.engine.undo()
    expect(s.read('gen/sub/a.txt')?.toString()).toBe('a\n')
  })
})

describe('a rewind past a command that made folders', () => {
  it('removes them, an empty one too, and keeps a folder that was there (empty) before', async () => {
    const s = await session()
    mkdirSync(join(s.cwd, 'pre'))
    s.prompt('make')
    await s.bash(
      'mkdir -p x/y && echo > x/y/f && mkdir -p x/empty/deeper pre/new && echo > pre/new/g'
    )
    s.reply('done')

    const { result } = await s.rewindTo(1)
    expect(s.read('x/y/f')).toBeNull()
    expect(isFolder(s, 'x')).toBe(false)
    expect(isFolder(s, 'pre/new')).toBe(false)
    expect(isFolder(s, 'pre')).toBe(true)
    expect(result.removedFolders).toEqual(['pre/new', 'x', 'x/empty', 'x/empty/deeper', 'x/y'])

    await s.engine.undo()
    expect(s.read('x/y/f')?.toString()).toBe('\n')
    expect(s.read('pre/new/g')?.toString()).toBe('\n')
    // A folder no file brings back, made again by the undo.
    expect(isFolder(s, 'x/empty/deeper')).toBe(true)
  })

  it('files no folder that was there before the command, nor those the next command did not make', async () => {
    const s = await session({ 'lib/old.c': 'x\n' })
    s.prompt('one')
    await s.bash('mkdir -p out && echo 1 > out/1.txt')
    s.reply('ok')
    s.prompt('two')
    await s.bash('echo 2 > out/2.txt && echo 3 > lib/new.c')
    s.reply('ok')
    const made = fileChangeRecords(s.store.tree()).map(
      (r) => `${r.path}: ${(r.createdFolders ?? []).join(',')}`
    )
    expect(made).toEqual(['out/1.txt: out', 'lib/new.c: ', 'out/2.txt: '])

    // Back to before turn 2: out/ stays, as turn 1 made it and turn 1 stays.
    await s.rewindTo(2)
    expect(s.read('out/1.txt')?.toString()).toBe('1\n')
    expect(s.read('out/2.txt')).toBeNull()
  })
})

describe('a restore that recreates files in a folder that is gone', () => {
  it('makes the folder, and its undo removes it again', async () => {
    const s = await session({ 'old/sub/f.txt': 'f\n' })
    s.prompt('clean up')
    await s.bash('rm -rf old')
    s.reply('done')

    const { result } = await s.rewindTo(1)
    expect(s.read('old/sub/f.txt')?.toString()).toBe('f\n')
    expect(result.madeFolders).toEqual(['old', 'old/sub'])
    const undone = await s.engine.undo()
    expect(isFolder(s, 'old')).toBe(false)
    expect(undone.removedFolders).toEqual(['old', 'old/sub'])
  })
})

describe('a session from before folders were kept', () => {
  it('still rewinds its files, and leaves its folders as it did', async () => {
    const s = await session()
    s.prompt('generate')
    await s.write('gen/sub/a.txt', 'a\n')
    s.reply('done')
    const file = s.store.file
    await s.close()
    open.splice(open.indexOf(s), 1)
    // The record as an earlier version wrote it: no createdFolders.
    const lines = readFileSync(file, 'utf8').split('\n')
    const old = lines.map((line) =>
      line.includes('"createdFolders"')
        ? JSON.stringify({ ...JSON.parse(line), createdFolders: undefined })
        : line
    )
    expect(old).not.toEqual(lines)
    writeFileSync(file, old.join('\n'))

    const again = await openSession(
      { base: dirname(s.cwd), cwd: s.cwd, home: s.home },
      SessionStore.open(file)
    )
    open.push(again)
    await again.engine.rewind(checkpointAt(again.store, 1), 'both')
    expect(again.read('gen/sub/a.txt')).toBeNull()
    expect(isFolder(s, 'gen/sub')).toBe(true)
  })
})

describe('folders a record names that a restore may not touch', () => {
  it('are left alone: outside the workspace, in .git, the workspace itself', async () => {
    const s = await session()
    s.prompt('generate')
    await s.write('gen/a.txt', 'a\n')
    s.reply('done')
    const file = s.store.file
    await s.close()
    open.splice(open.indexOf(s), 1)
    const outside = join(dirname(s.cwd), 'outside-empty')
    mkdirSync(outside)
    mkdirSync(join(s.cwd, '.git/empty-here'))
    const forged = ['../outside-empty', '.git/empty-here', '', '.', outside, 'gen']
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .map((line) =>
        line.includes('"createdFolders"')
          ? JSON.stringify({ ...JSON.parse(line), createdFolders: forged })
          : line
      )
    writeFileSync(file, lines.join('\n'))

    const again = await openSession(
      { base: dirname(s.cwd), cwd: s.cwd, home: s.home },
      SessionStore.open(file)
    )
    open.push(again)
    const result = await again.engine.rewind(checkpointAt(again.store, 1), 'both')
    expect(result.removedFolders).toEqual(['gen'])
    expect(existsSync(outside)).toBe(true)
    expect(existsSync(join(s.cwd, '.git/empty-here'))).toBe(true)
    expect(existsSync(s.cwd)).toBe(true)
  })
})

describe('a restore cut short', () => {
  it('is rolled back with the folders it removed made again, and those it made removed', async () => {
    const s = await session()
    mkdirSync(join(s.cwd, 'made/by/undo'), { recursive: true })
    // A rewind killed after it removed gen/ and gen/sub/, before it was marked applied; an undo
    // killed after it made made/by/undo/.
    const where = { sessionId: s.store.sessionId, root: s.history.root }
    const move = { checkpointUuid: null, mode: null, leafBefore: null, leafAfter: null }
    const rewind = pendingJournal(where, move, 'rewind', [], { removeFolders: ['gen', 'gen/sub'] })
    const undo = pendingJournal(where, move, 'undo', [], {
      makeFolders: ['made', 'made/by', 'made/by/undo']
    })
    await saveJournal(s.history.paths.restores, rewind)
    await saveJournal(s.history.paths.restores, undo)

    const notices = await s.engine.recover()
    expect(notices).toHaveLength(2)
    expect(isFolder(s, 'gen/sub')).toBe(true)
    expect(isFolder(s, 'made')).toBe(false)
  })
})

describe('cli rewind', () => {
  it('names the folders it removed, and those its undo made again', async () => {
    const s = await session()
    s.prompt('generate')
    await s.write('gen/sub/a.txt', 'a\n')
    s.reply('done')
    await s.close()
    open.splice(open.indexOf(s), 1)

    const r = runCliSync(s.home, 'rewind', s.store.file, '--to', '1')
    expect(r.code).toBe(0)
    expect(r.out).toContain('  ⎿ removed folder gen/ (empty)\n  ⎿ removed folder gen/sub/ (empty)')
    const u = runCliSync(s.home, 'rewind', s.store.file, '--undo')
    expect(u.code).toBe(0)
    expect(u.out).toContain('  ⎿ made folder gen/ again\n  ⎿ made folder gen/sub/ again')
    expect(s.read('gen/sub/a.txt')?.toString()).toBe('a\n')
  })
})
