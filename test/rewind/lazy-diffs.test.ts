// A big rewind's preview lists every file but makes diffs only for its first few; the rest are
// made when asked for (a file opened in the dialog, `cli rewind --diff`), from the same contents.
import { describe, expect, it } from 'vitest'
import { unifiedDiff } from '../../src/core/rewind/file-diff'
import { RewindError } from '../../src/core/rewind/rewind-engine'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { sessionsClosedAfterEach } from './fixture'

const { session } = sessionsClosedAfterEach()
const FILES = 60
const text = (i: number, word: string) => `line one of ${i}\n${word} line of ${i}\nlast line\n`

describe('rewind preview diffs', () => {
  it('are made for the first files only, and the rest on request equal what an eager diff gives', async () => {
    const files = Object.fromEntries(
      Array.from({ length: FILES }, (_, i) => [
        `f${String(i).padStart(2, '0')}.txt`,
        text(i, 'first')
      ])
    )
    const s = await session(files)
    s.prompt('rewrite them all')
    await s.bash(`for f in f*.txt; do sed -i 's/first/second/' $f; done`)
    s.reply('done')
    // One file changed by hand since: its diff shows the hand edit going too.
    s.hand('f59.txt', text(59, 'by hand'))
    const plan = await s.engine.planRewind(checkpointAt(s.store, 1), 'code')
    const listed = plan.preview.restore
    expect(listed).toHaveLength(FILES)
    const eager = listed.filter((f) => f.diff !== null)
    expect(eager.length).toBeGreaterThan(0)
    expect(eager.length).toBeLessThan(FILES)
    for (const file of listed) {
      const asked = s.engine.fileDiff(plan, file.path)
      const i = Number(file.path.slice(1, 3))
      const current = Buffer.from(i === 59 ? text(59, 'by hand') : text(i, 'second'))
      expect(asked.diff).toBe(unifiedDiff(file.path, current, Buffer.from(text(i, 'first'))))
      if (file.diff !== null) expect(asked.diff).toBe(file.diff)
      expect(asked.outsideChange).toBe(file.outsideChange)
    }
    expect(s.engine.fileDiff(plan, 'f59.txt').diff).toContain('-by hand line of 59')
    expect(() => s.engine.fileDiff(plan, 'not-in-the-plan.txt')).toThrow(RewindError)
    // The preview made no change: applying it restores every file.
    await s.engine.apply(plan)
    expect(s.read('f30.txt')).toBe(text(30, 'first'))
  })
})
