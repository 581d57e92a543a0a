import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listJournals } from '../../src/core/rewind/journal'
import { RewindEngine, checkpointAt } from '../../src/core/rewind/rewind-engine'
import { SessionStore } from '../../src/core/session/store'
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

describe('a restore interrupted by a crash', () => {
  it('is rolled back at the next start when the process was killed mid-restore', async () => {
    const { s, second } = await sessionWithBigTurn()
    const leaf = s.store.leafUuid
    const file = s.store.file
    await s.close()

    await killWhenPaused(join(__dirname, 'crash-child.ts'), [file, s.cwd, s.home, second, '150'])
    // Really mid-restore: some files rewritten back to "original", some not yet.
    const halfway = countWith(s, 'original')
    expect(halfway).toBeGreaterThanOrEqual(150)
    expect(halfway).toBeLessThan(FILES)
    // Killed between a batch's writes and its renames: temp files beside old files.
    expect(tempFiles(s.cwd).length).toBeGreaterThan(0)

    const store = SessionStore.open(file)
    const restarted = await openSession(s, store)
    const notices = await restarted.engine.recover()
    expect(notices.join('\n')).toMatch(/rolled back/)
    expect(countWith(restarted, 'rewritten')).toBe(FILES)
    expect(tempFiles(s.cwd)).toEqual([])
    expect(store.leafUuid).toBe(leaf)
    expect((await listJournals(restarted.history.paths.restores))[0]?.state).toBe('rolled-back')
    // And the rewind still works afterwards.
    await restarted.engine.rewind(checkpointAt(store, 2), 'both')
    expect(countWith(restarted, 'original')).toBe(FILES)
    await restarted.close()
  })

  it('is completed at the next start when the files were done but the record was not written', async () => {
    const { s, second } = await sessionWithBigTurn()
    const plan = await s.engine.planRewind(second, 'both')
    // The log stops accepting appends (closed here; a full disk does the same) after the files.
    s.store.close()
    await expect(s.engine.apply(plan)).rejects.toThrow(/closed/)
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
