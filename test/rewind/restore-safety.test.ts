// Adversarial cases for restores: what stands on a recorded path by the time of the rewind may
// not be what the session left there (a symlink, a folder), a crash may be recovered after the
// user went on editing, and undo must give back permission bits as well as bytes.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../src/core/files/blob-store'
import { listJournals, newJournalId, saveJournal } from '../../src/core/rewind/journal'
import { RewindEngine } from '../../src/core/rewind/rewind-engine'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { type WorkspaceSession, sessionsClosedAfterEach } from './fixture'

const { session } = sessionsClosedAfterEach()

const modeOf = (s: WorkspaceSession, rel: string) => statSync(join(s.cwd, rel)).mode & 0o7777

describe('a symlink put on a recorded path after the session changed it', () => {
  it('is not followed into a file the session never touched (write or delete)', async () => {
    const s = await session({ 'e/f.txt': 'the user’s own file\n' })
    s.prompt('make d/f.txt')
    await s.bash('mkdir d && echo one > d/f.txt')
    const second = s.prompt('swap the folder d for a link to e')
    await s.bash('rm -r d && ln -s e d')
    const leaf = s.store.leafUuid
    // Back to checkpoint 2 would write "one" into d/f.txt, i.e. through the link into e/f.txt;
    // back to checkpoint 1 would delete d/f.txt, i.e. e/f.txt.
    for (const checkpoint of [second, checkpointAt(s.store, 1)]) {
      await expect(s.engine.rewind(checkpoint, 'code')).rejects.toThrow(/"d\/f.txt".*symlink/)
      expect(readFileSync(join(s.cwd, 'e/f.txt'), 'utf8')).toBe('the user’s own file\n')
      expect(s.store.leafUuid).toBe(leaf)
    }
  })
})

describe('a symlink swapped in between the preview and the apply', () => {
  it('refuses the apply, naming the path, and writes nothing outside', async () => {
    const s = await session({ 'd/f.txt': 'v0\n' })
    s.prompt('edit d/f.txt')
    await s.write('d/f.txt', 'v1\n')
    const plan = await s.engine.planRewind(checkpointAt(s.store, 1), 'code')
    expect(plan.preview.restore.map((f) => f.path)).toEqual(['d/f.txt'])
    const outside = join(s.base, 'outside')
    mkdirSync(outside)
    renameSync(join(s.cwd, 'd'), join(s.base, 'moved-away'))
    symlinkSync(outside, join(s.cwd, 'd'))
    await expect(s.engine.apply(plan)).rejects.toThrow(/"d\/f.txt".*symlink/)
    expect(readdirSync(outside)).toEqual([])
  })
})

describe('a file changed between the preview and the apply', () => {
  it('is not overwritten unseen: the apply asks for a new preview and changes nothing', async () => {
    const s = await session({ 'a.txt': 'v0\n', 'b.txt': 'b0\n' })
    s.prompt('edit both')
    await s.write('a.txt', 'v1\n')
    await s.write('b.txt', 'b1\n')
    const plan = await s.engine.planRewind(checkpointAt(s.store, 1), 'both')
    expect(plan.preview.restore.map((f) => [f.path, f.outsideChange])).toEqual([
      ['a.txt', false],
      ['b.txt', false]
    ])
    // Typed by hand (or by another session) while the preview was on screen.
    s.hand('b.txt', 'typed after the preview\n')
    const leaf = s.store.leafUuid
    await expect(s.engine.apply(plan)).rejects.toThrow(/b\.txt.*changed since the preview/)
    expect([s.read('a.txt'), s.read('b.txt')]).toEqual(['v1\n', 'typed after the preview\n'])
    expect(s.store.leafUuid).toBe(leaf)
  })
})

describe('files last changed well before the preview (apply trusts their stamps)', () => {
  // A file whose ctime is older than the settle margin (2 s at most) is not read again if its
  // inode, size and times are as the preview found them: these cases need that to be so.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 2100))

  it('still sees a same-size hand edit made after the preview, and one made during the apply', async () => {
    const s = await session({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'run.sh': 'echo 0\n' })
    chmodSync(join(s.cwd, 'run.sh'), 0o750)
    s.prompt('edit all three')
    await s.write('a.txt', 'a1\n')
    await s.write('b.txt', 'b1\n')
    await s.write('run.sh', 'echo 1\n')
    await settle()
    const leaf = s.store.leafUuid
    const stale = await s.engine.planRewind(checkpointAt(s.store, 1), 'both')
    s.hand('b.txt', 'bX\n') // same size: only the times tell
    await expect(s.engine.apply(stale)).rejects.toThrow(/b\.txt.*changed since the preview/)
    expect(s.read('b.txt')).toBe('bX\n')

    s.hand('b.txt', 'b1\n')
    await settle()
    // The first file written by the apply is a.txt; right then the user saves b.txt.
    let edited = false
    const engine = new RewindEngine({
      home: s.home,
      store: s.store,
      space: s.history,
      onProgress: (done) => {
        if (done !== 1 || edited) return
        edited = true
        s.hand('b.txt', 'bY\n')
      }
    })
    await expect(
      engine.apply(await engine.planRewind(checkpointAt(s.store, 1), 'both'))
    ).rejects.toThrow(/b\.txt was changed while the restore ran/)
    expect([s.read('a.txt'), s.read('b.txt')]).toEqual(['a1\n', 'bY\n'])
    expect(s.store.leafUuid).toBe(leaf)

    s.hand('b.txt', 'b1\n')
    await settle()
    await engine.apply(await engine.planRewind(checkpointAt(s.store, 1), 'both'))
    expect([s.read('a.txt'), s.read('b.txt'), s.read('run.sh')]).toEqual([
      'a0\n',
      'b0\n',
      'echo 0\n'
    ])
    expect(modeOf(s, 'run.sh')).toBe(0o750)
  })
})

describe('a folder where a file was, and a file where a folder was', () => {
  it('rewinds and undoes a file that a command replaced with a folder', async () => {
    const s = await session({ 'a.txt': 'was a file\n' })
    s.prompt('turn a.txt into a folder')
    await s.bash('rm a.txt && mkdir a.txt && echo inside > a.txt/f')
    await s.engine.rewind(checkpointAt(s.store, 1), 'both')
    expect(s.read('a.txt')).toBe('was a file\n')
    await s.engine.undo()
    expect(s.read('a.txt/f')).toBe('inside\n')
  })

  it('rewinds and undoes a folder that a command replaced with a file', async () => {
    const s = await session({ 'd/x.txt': 'in a folder\n' })
    s.prompt('turn d into a file')
    await s.bash('rm -r d && echo flat > d')
    await s.engine.rewind(checkpointAt(s.store, 1), 'both')
    expect(s.read('d/x.txt')).toBe('in a folder\n')
    await s.engine.undo()
    expect(s.read('d')).toBe('flat\n')
  })

  it('refuses, naming the path and changing nothing, when the folder holds a file of the user', async () => {
    const s = await session({ 'a.txt': 'was a file\n' })
    s.prompt('turn a.txt into a folder')
    await s.bash('rm a.txt && mkdir a.txt && echo inside > a.txt/f')
    s.hand('a.txt/mine', 'the user’s\n')
    const leaf = s.store.leafUuid
    await expect(s.engine.rewind(checkpointAt(s.store, 1), 'both')).rejects.toThrow(
      /a\.txt.*folder/
    )
    expect([s.read('a.txt/f'), s.read('a.txt/mine')]).toEqual(['inside\n', 'the user’s\n'])
    expect(s.store.leafUuid).toBe(leaf)
  })
})

describe('recovery of a restore a crash interrupted', () => {
  it('leaves alone a file the user edited after the crash, and says so', async () => {
    const s = await session({ 'a.txt': 'original\n' })
    s.prompt('edit a.txt')
    await s.write('a.txt', 'agent\n')
    // A rewind to checkpoint 1 was writing a.txt ("agent" -> "original") when the process died;
    // before the next start the user edited a.txt by hand.
    await saveJournal(s.history.paths.restores, {
      id: newJournalId(),
      sessionId: s.store.sessionId,
      kind: 'rewind',
      checkpointUuid: checkpointAt(s.store, 1),
      mode: 'both',
      leafBefore: s.store.leafUuid,
      leafAfter: null,
      undoes: null,
      ops: [
        {
          path: 'a.txt',
          from: sha256(Buffer.from('agent\n')),
          to: sha256(Buffer.from('original\n'))
        }
      ],
      state: 'pending',
      createdAt: new Date().toISOString()
    })
    s.hand('a.txt', 'typed by hand after the crash\n')
    // The crash came between writing the temp file and renaming it over a.txt.
    s.hand('.a.txt.4242-7.rs-tmp', 'original\n')
    const notices = await s.engine.recover()
    expect(readdirSync(s.cwd).sort()).toEqual(['a.txt'])
    expect(s.read('a.txt')).toBe('typed by hand after the crash\n')
    expect(notices.join('\n')).toMatch(/a\.txt/)
    expect((await listJournals(s.history.paths.restores))[0]?.state).toBe('rolled-back')
  })
})

describe('a journal of a restore into another folder (cli rewind --cwd)', () => {
  it('is not rolled back here', async () => {
    const s = await session({ 'a.txt': 'original\n' })
    s.prompt('edit a.txt')
    await s.write('a.txt', 'agent\n')
    s.hand('a.txt', 'original\n')
    await saveJournal(s.history.paths.restores, {
      id: newJournalId(),
      sessionId: s.store.sessionId,
      kind: 'rewind',
      checkpointUuid: checkpointAt(s.store, 1),
      mode: 'code',
      leafBefore: s.store.leafUuid,
      leafAfter: s.store.leafUuid,
      undoes: null,
      root: join(s.base, 'copy'),
      ops: [
        {
          path: 'a.txt',
          from: sha256(Buffer.from('agent\n')),
          to: sha256(Buffer.from('original\n'))
        }
      ],
      state: 'pending',
      createdAt: new Date().toISOString()
    })
    expect((await s.engine.recover()).join('\n')).toContain(`--cwd ${join(s.base, 'copy')}`)
    expect(s.read('a.txt')).toBe('original\n')
  })
})

describe('a command whose changes cannot all be backed up afterwards (full disk)', () => {
  it('still records every change, so a rewind puts the files back', async () => {
    const s = await session({ 'a.txt': 'v0\n', 'b.txt': 'b0\n' })
    s.prompt('change both')
    await s.history.prepareForCommands()
    // The store cannot take a.txt's new content: a file stands where its shard folder goes
    // (made ahead, empty, by prepareForCommands).
    const shard = join(s.history.paths.blobs, sha256(Buffer.from('v1\n')).slice(0, 2))
    rmSync(shard, { recursive: true })
    writeFileSync(shard, '')
    const changes = await s.bash('echo v1 > a.txt && echo b1 > b.txt')
    expect(changes.modified).toEqual(['a.txt', 'b.txt'])
    expect(changes.warnings).toEqual([expect.stringMatching(/^the new content of a\.txt \(/)])
    rmSync(shard)
    s.prompt('next')
    await s.bash('true')
    await s.engine.rewind(checkpointAt(s.store, 1), 'code')
    expect([s.read('a.txt'), s.read('b.txt')]).toEqual(['v0\n', 'b0\n'])
  })
})

describe('a damaged journal', () => {
  it('is named in a notice and does not stop the session from opening', async () => {
    const s = await session()
    const id = newJournalId()
    mkdirSync(s.history.paths.restores, { recursive: true })
    writeFileSync(join(s.history.paths.restores, `${id}.json`), '{"id": "torn')
    const notices = await s.engine.recover()
    expect(notices.join('\n')).toContain(
      `Restore journal ${join(s.history.paths.restores, `${id}.json`)} is damaged`
    )
    s.prompt('still works')
    await s.write('a.txt', 'x')
    await s.engine.rewind(checkpointAt(s.store, 1), 'code')
    expect(s.read('a.txt')).toBeNull()
  })
})

describe('permission bits', () => {
  it('a restore keeps a file’s mode exactly, bits the umask would strip included', async () => {
    const s = await session({ 'shared.txt': 'v0\n' })
    chmodSync(join(s.cwd, 'shared.txt'), 0o666)
    s.prompt('edit shared.txt')
    await s.bash('echo v1 > shared.txt')
    await s.engine.rewind(checkpointAt(s.store, 1), 'code')
    expect(s.read('shared.txt')).toBe('v0\n')
    expect(modeOf(s, 'shared.txt')).toBe(0o666)
  })

  it('undo recreates a deleted executable with its mode', async () => {
    const s = await session()
    s.prompt('make a script')
    await s.bash("printf '#!/bin/sh\\necho hi\\n' > run.sh && chmod 755 run.sh")
    s.prompt('more')
    await s.engine.rewind(checkpointAt(s.store, 1), 'both')
    expect(existsSync(join(s.cwd, 'run.sh'))).toBe(false)
    await s.engine.undo()
    expect(s.read('run.sh')).toBe('#!/bin/sh\necho hi\n')
    expect(modeOf(s, 'run.sh')).toBe(0o755)
  })
})
