import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listJournals, loadJournal, saveJournal } from '../../src/core/rewind/journal'
import { RewindEngine } from '../../src/core/rewind/rewind-engine'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { SessionStore } from '../../src/core/session/store'
import { runCliSync } from '../support/cli'
import { makeWorkspace, openSession } from './fixture'
import { killWhenPaused } from '../support/kill-when-paused'

const FILES = 300

async function sessionWithBigTurn() {
  const where = makeWorkspace()
  const s = await openSession(where)
  s.prompt('create the originals')
  await s.bash(`for i in $(seq 1 ${FILES}); do echo "original $i" > f$i.txt; done`)
  const second = s.prompt('rewrite them all')
  await s.bash(`for i in $(seq 1 ${FILES}); do echo "rewritten $i" > f$i.txt; done`)
  s.reply('done')
  return { s, second }
}

/** The temp files of a restore left in the workspace (`.<name>.<pid>-<n>.rs-tmp`). */
function tempFiles(cwd: string): string[] {
  return readdirSync(cwd).filter((name) => name.endsWith('.rs-tmp'))
}

function countWith(s: { read(rel: string): string | null }, word: string): number {
  let n = 0
  for (let i = 1; i <= FILES; i++) if (s.read(`f${i}.txt`)?.startsWith(word) === true) n++
  return n
}

/** The bytes of `text` written over the file from its first byte, the rest of it kept. */
function writeOver(abs: string, text: string): void {
  const fd = openSync(abs, 'r+')
  try {
    writeSync(fd, text, 0)
  } finally {
    closeSync(fd)
  }
}

/** Recovery at the next start: every file back as before the restore, no temp file left. */
async function recovered(
  s: { cwd: string; home: string; base: string },
  file: string,
  leaf: string | null
) {
  const store = SessionStore.open(file)
  const restarted = await openSession(s, store)
  const notices = await restarted.engine.recover()
  expect(notices.join('\n')).toMatch(/rolled back/)
  expect(countWith(restarted, 'rewritten')).toBe(FILES)
  expect(tempFiles(s.cwd)).toEqual([])
  expect(store.leafUuid).toBe(leaf)
  expect((await listJournals(restarted.history.paths.restores))[0]?.state).toBe('rolled-back')
  return restarted
}

describe('a restore interrupted by a crash', () => {
  it('is rolled back at the next start when the process was killed mid-restore', async () => {
    const { s, second } = await sessionWithBigTurn()
    const leaf = s.store.leafUuid
    const file = s.store.file
    await s.close()

    await killWhenPaused(join(__dirname, 'crash-child.ts'), [file, s.cwd, s.home, second, '150'])
    // Really mid-restore: some files rewritten back to "original" (in place: no temp file), some not yet.
    const halfway = countWith(s, 'original')
    expect(halfway).toBeGreaterThanOrEqual(150)
    expect(halfway).toBeLessThan(FILES)
    expect(tempFiles(s.cwd)).toEqual([])

    // A dry run puts nothing right, but says that the next rewind will first (the sweep of
    // stop 46: it planned from the half-restored files in silence).
    const dry = runCliSync(s.home, 'rewind', file, '--to', '2', '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.err).toMatch(
      /note: A rewind \(\S+\) is under way in another process or was interrupted: if interrupted, the next rewind or opening of the session rolls its 300 file\(s\) back first, so what is shown here, made of the files as they are now, may not be what it does\./
    )
    expect(countWith(s, 'original')).toBe(halfway)

    const restarted = await recovered(s, file, leaf)
    // And the rewind still works afterwards.
    await restarted.engine.rewind(checkpointAt(restarted.store, 2), 'both')
    expect(countWith(restarted, 'original')).toBe(FILES)
    await restarted.close()
  })

  it('is rolled back with its temp files removed when killed between writes and renames', async () => {
    const { s, second } = await sessionWithBigTurn()
    // A second name for every file (outside the workspace): such a file is never written in
    // place (the other name would change too), so it goes by temp file and rename.
    const links = join(s.base, 'links')
    mkdirSync(links)
    for (let i = 1; i <= FILES; i++) linkSync(join(s.cwd, `f${i}.txt`), join(links, `f${i}.txt`))
    const leaf = s.store.leafUuid
    const file = s.store.file
    await s.close()

    await killWhenPaused(join(__dirname, 'crash-child.ts'), [file, s.cwd, s.home, second, '150'])
    expect(countWith(s, 'original')).toBeGreaterThanOrEqual(150)
    // Killed between a batch's writes and its renames: temp files beside old files.
    expect(tempFiles(s.cwd).length).toBeGreaterThan(0)

    const restarted = await recovered(s, file, leaf)
    // The other names kept what the files had: a rename never writes through a link.
    expect(readFileSync(join(links, 'f1.txt'), 'utf8')).toBe('rewritten 1\n')
    await restarted.close()
  })

  it("puts back a file whose in-place write (or its rollback's) a crash cut short, and leaves a file someone changed", async () => {
    const { s, second } = await sessionWithBigTurn()
    const leaf = s.store.leafUuid
    const file = s.store.file
    await s.close()

    await killWhenPaused(join(__dirname, 'crash-child.ts'), [file, s.cwd, s.home, second, '150'])
    // The next files as a kill inside the write of f-next would leave them: "original N"
    // written over "rewritten N" from the first byte and stopped after 5 bytes, or after the
    // whole new content but before the old file's longer end was cut.
    const untouched = [...Array(FILES).keys()]
      .map((i) => `f${i + 1}.txt`)
      .filter((rel) => s.read(rel)?.startsWith('rewritten') === true)
    const [cut, uncut, changed] = untouched
    if (cut === undefined || uncut === undefined || changed === undefined) {
      throw new Error('the child restored too many files')
    }
    writeOver(join(s.cwd, cut), (s.read(cut) ?? '').replace('rewritten', 'original').slice(0, 5))
    writeOver(join(s.cwd, uncut), (s.read(uncut) ?? '').replace('rewritten', 'original'))
    expect(s.read(cut)).toMatch(/^origitten \d+\n$/)
    expect(s.read(uncut)).toMatch(/^original \d+\n\d?\n?$/)
    // And one someone else changed since: not the restore's doing.
    writeFileSync(join(s.cwd, changed), 'edited by hand\n')
    // One restored already whose rollback (writing "rewritten N" back in place) was cut short
    // after 3 bytes by a second crash.
    const back = [...Array(FILES).keys()]
      .map((i) => `f${i + 1}.txt`)
      .find((rel) => s.read(rel)?.startsWith('original') === true)
    if (back === undefined) throw new Error('the child restored no file')
    writeOver(join(s.cwd, back), 'rew')
    expect(s.read(back)).toMatch(/^rewginal \d+\n$/)

    const store = SessionStore.open(file)
    const restarted = await openSession(s, store)
    const notices = (await restarted.engine.recover()).join('\n')
    expect(notices).toMatch(/rolled back/)
    expect(notices).toContain(`${changed} (it was changed since the restore began)`)
    expect(s.read(cut)).toBe(`rewritten ${cut.slice(1, -4)}\n`)
    expect(s.read(uncut)).toBe(`rewritten ${uncut.slice(1, -4)}\n`)
    expect(s.read(back)).toBe(`rewritten ${back.slice(1, -4)}\n`)
    expect(s.read(changed)).toBe('edited by hand\n')
    expect(countWith(restarted, 'rewritten')).toBe(FILES - 1)
    expect(store.leafUuid).toBe(leaf)
    await restarted.close()
  })

  it('puts the files back at once when the log refuses the record after the files', async () => {
    const { s, second } = await sessionWithBigTurn()
    const plan = await s.engine.planRewind(second, 'both')
    // The log stops accepting appends (closed here; a full disk does the same) after the files.
    s.store.close()
    await expect(s.engine.apply(plan)).rejects.toThrow(
      /^Could not record the restore: .*closed.*\. Its files were put back: nothing was changed\.$/
    )
    expect(countWith(s, 'rewritten')).toBe(FILES)
    const store = SessionStore.open(s.store.file)
    const engine = new RewindEngine({ home: s.home, store, space: s.history })
    expect(await engine.recover()).toEqual([])
    expect(store.leafUuid).toBe(plan.leafBefore)
    store.close()
    await s.history.close()
  })

  it('is completed at the next start when the files were done but the record was not written', async () => {
    const { s, second } = await sessionWithBigTurn()
    const plan = await s.engine.planRewind(second, 'both')
    const logBefore = readFileSync(s.store.file)
    const restores = s.history.paths.restores
    const journalsBefore = new Set(existsSync(restores) ? readdirSync(restores) : [])
    await s.engine.apply(plan)
    s.store.close()
    const id = readdirSync(restores)
      .find((name) => !journalsBefore.has(name) && name.endsWith('.json'))
      ?.slice(0, -'.json'.length)
    const journal = await loadJournal(restores, id ?? '')
    expect(journal.state).toBe('recorded')
    // What a crash between the journal's `applied` and the record leaves on disk: every file
    // written, the journal applied, the log without the record.
    writeFileSync(s.store.file, logBefore)
    await saveJournal(restores, { ...journal, state: 'applied' })
    // Never recorded, it was never listed finished either (finished-journals.ts).
    rmSync(join(restores, 'finished'), { force: true })
    expect(countWith(s, 'original')).toBe(FILES)

    const store = SessionStore.open(s.store.file)
    const engine = new RewindEngine({ home: s.home, store, space: s.history })
    expect((await engine.recover()).join('\n')).toMatch(/completed/)
    expect(store.leafUuid).toBe(plan.leafAfter)
    expect(await engine.recover()).toEqual([])
    await engine.undo()
    expect(countWith(s, 'rewritten')).toBe(FILES)
    store.close()
    await s.history.close()
  })
})
