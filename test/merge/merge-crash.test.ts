// A merge killed (SIGKILL) in the middle of writing its files: every file is as it was or as
// merged, never partial; the next start rolls the merge back (no merge record), and it can be
// made again.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { prepareMerge, runMerge } from '../../src/core/merge/merge'
import { listJournals } from '../../src/core/rewind/journal'
import { SessionStore } from '../../src/core/session/store'
import { killWhenPaused } from '../support/kill-when-paused'
import { makeWorkspace, openSession } from '../rewind/fixture'

const FILES = 200
const body = (first: string, last: string) => `${first}\nmiddle\nmiddle\nmiddle\n${last}\n`

describe('a merge interrupted by a crash', () => {
  it('leaves each file as it was or as merged, and is rolled back at the next start', async () => {
    const where = makeWorkspace()
    const s = await openSession(where)
    const seq = `$(seq 1 ${FILES})`
    s.prompt('base')
    await s.bash(
      `for i in ${seq}; do printf 'first\\nmiddle\\nmiddle\\nmiddle\\nlast\\n' > f$i.txt; done`
    )
    s.reply('ok')
    const theirs = s.prompt('theirs')
    await s.bash(
      `for i in ${seq}; do printf 'FIRST\\nmiddle\\nmiddle\\nmiddle\\nlast\\n' > f$i.txt; done`
    )
    const theirEnd = s.reply('ok')
    await s.engine.rewind(theirs, 'both')
    s.prompt('ours')
    await s.bash(
      `for i in ${seq}; do printf 'first\\nmiddle\\nmiddle\\nmiddle\\nLAST\\n' > f$i.txt; done`
    )
    s.reply('ok')
    const leaf = s.store.leafUuid
    const file = s.store.file
    await s.close()

    await killWhenPaused(join(__dirname, 'merge-crash-child.ts'), [
      file,
      s.cwd,
      s.home,
      theirEnd,
      '100'
    ])
    const states = new Map<string, number>()
    for (let i = 1; i <= FILES; i++) {
      const text = s.read(`f${i}.txt`)
      const state =
        text === body('first', 'LAST')
          ? 'ours'
          : text === body('FIRST', 'LAST')
            ? 'merged'
            : `other: ${text}`
      states.set(state, (states.get(state) ?? 0) + 1)
    }
    // Really mid-apply: some merged, some not yet, nothing else.
    expect([...states.keys()].sort()).toEqual(['merged', 'ours'])
    expect(states.get('merged')).toBeGreaterThanOrEqual(100)

    const store = SessionStore.open(file)
    const again = await openSession(s, store)
    const notices = await again.engine.recover()
    expect(notices.join('\n')).toMatch(/merge .* was rolled back/)
    for (let i = 1; i <= FILES; i++) expect(s.read(`f${i}.txt`)).toBe(body('first', 'LAST'))
    expect(store.leafUuid).toBe(leaf)
    expect(store.tree().records.some((r) => (r as { type?: string }).type === 'merge')).toBe(false)
    expect((await listJournals(again.history.paths.restores)).at(-1)?.state).toBe('rolled-back')

    const ws = {
      tree: () => store.tree(),
      leafUuid: () => store.leafUuid,
      engine: again.engine,
      space: again.history
    }
    await runMerge(ws, await prepareMerge(ws, { fromUuid: theirEnd, files: true }), {})
    for (let i = 1; i <= FILES; i++) expect(s.read(`f${i}.txt`)).toBe(body('FIRST', 'LAST'))
    await again.close()
  })
})
