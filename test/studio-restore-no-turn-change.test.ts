// A restore is its own action, never a turn's change (issue 26, item 1). The demo's walk: three
// turns (the third an exploration that changed nothing), a hand edit, a code-only rewind and its
// undo. Every view of the turns (the graph's badges, the inspector's diff, the rewind picker's
// counts, search, export, inspect) says what it said before, and a later continue to the
// exploration brings back the files as that turn left them, not the hand edit made after it.
// The real studio through its contract handlers (scripted demo model), the real CLI for inspect.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CheckpointView, SearchEntry, SessionGraph } from '../src/shared/views'
import { runCli } from './support/cli'
import { type Harness, studioHarnesses } from './support/studio-harness'

const { harness } = studioHarnesses()

const config = (h: Harness) => readFileSync(join(h.workspace, 'config.py'), 'utf8')

/** What every view says of the session's turns. */
async function turnViews(h: Harness) {
  const graph = await h.value<SessionGraph>('session:graph')
  const turns = graph.nodes.filter((n) => n.kind === 'turn')
  const exported = JSON.parse(
    (
      await h.value<{ content: string }>('session:export', {
        format: 'json',
        scope: 'all'
      })
    ).content
  ) as { nodes: { id: string; files: string[] }[] }
  const search = await h.value<SearchEntry[]>('session:searchIndex')
  const inspected = await runCli(['inspect', h.studio.info().sessionFile], {
    env: { REWIND_STUDIO_HOME: h.home }
  })
  return {
    badges: turns.map((n) => n.filesChanged),
    inspector: await Promise.all(
      turns.map(async (n) =>
        (await h.value<{ files: { path: string }[] }>('session:node', { nodeId: n.id })).files.map(
          (f) => f.path
        )
      )
    ),
    picker: (await h.value<CheckpointView[]>('session:checkpoints', { leafUuid: null })).map(
      (c) => c.filesChanged
    ),
    exported: turns.map((n) => exported.nodes.find((e) => e.id === n.id)?.files),
    search: turns.map((n) => search.find((e) => e.nodeId === n.id)?.text),
    inspect: inspected.stdout.split('\n').filter((line) => /files? changed\)$/.test(line))
  }
}

describe('a code-only rewind and its undo, in the studio', () => {
  it('leave every view of the turns as it was, and a later continue to the exploration leaves the hand edit out', async () => {
    const h = await harness(['checkpoint.enabled=true'])
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    await h.sendAndWait('checkpoint: find every setting')
    const before = await turnViews(h)
    expect(before.badges).toEqual([1, 2, 0])
    expect(before.inspector[2]).toEqual([])
    expect(before.inspect).toHaveLength(3)

    const turnOne = (await h.value<SessionGraph>('session:graph')).nodes[0]?.id as string
    const turnTwo = (await h.value<SessionGraph>('session:graph')).nodes[1]?.id as string
    const asTurnsLeftIt = config(h)
    writeFileSync(join(h.workspace, 'config.py'), `${asTurnsLeftIt}PORT = 8080\n`)
    await h.value('rewind:apply', { checkpointUuid: turnTwo, mode: 'code' })
    await h.value('rewind:undo')
    await h.value('rewind:apply', { checkpointUuid: turnOne, mode: 'code' })
    await h.value('rewind:undo')
    expect(config(h)).toBe(`${asTurnsLeftIt}PORT = 8080\n`)
    expect(await turnViews(h)).toEqual(before)

    // Away to turn one, then back to the exploration: it left the files as turn two did, the
    // hand edit came later (the first continue's undo would give it back).
    await h.value('continue:apply', { nodeId: turnOne })
    const exploration = (await h.value<SessionGraph>('session:graph')).nodes.find(
      (n) => n.kind === 'exploration'
    )
    expect(exploration).toBeDefined()
    await h.value('continue:apply', { nodeId: exploration?.id })
    expect(config(h)).toBe(asTurnsLeftIt)
    expect((await turnViews(h)).badges).toEqual([1, 2, 0])
  })
})
