// The "files changed since" marker follows the disk with no request from the page (issue 26, item
// 3): the studio watches the files the session touched and pushes the graph when a hand edit
// changes what the marker says, and again when the edit is undone by hand; a second edit that
// leaves it changed pushes nothing. The real studio, agent (scripted demo model) and files.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GraphUpdate } from '../src/shared/graph-encoding'
import type { SessionGraph } from '../src/shared/views'
import { studioHarnesses, type Harness } from './support/studio-harness'

const { harness } = studioHarnesses()

/** What each graph pushed since event `from` said of the files: changed since, or not. */
function pushedMarks(h: Harness, from: number): boolean[] {
  return h.events
    .slice(from)
    .filter((e) => e.event === 'session:graphUpdate')
    .map((e) => (e.payload as GraphUpdate).filesAt.changedSince)
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 600))

describe('the files marker follows the disk', () => {
  it('pushes "changed since" after a hand edit of a touched file, and back after it is undone', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const config = join(h.workspace, 'config.py')
    const agents = readFileSync(config, 'utf8')
    const from = h.events.length

    writeFileSync(config, `${agents}PORT = 8080\n`)
    await expect.poll(() => pushedMarks(h, from), { timeout: 10_000 }).toEqual([true])
    // Still changed: nothing to tell the pages.
    writeFileSync(config, `${agents}PORT = 9090\n`)
    await settle()
    writeFileSync(config, agents)
    await expect.poll(() => pushedMarks(h, from), { timeout: 10_000 }).toEqual([true, false])
    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.filesAt).toEqual({ nodeId: graph.nodes[0]?.id, changedSince: false })
  })

  it('pushes nothing for a file the session never touched', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const from = h.events.length
    writeFileSync(join(h.workspace, 'notes.txt'), 'mine\n')
    await settle()
    // A touched file after it: its push is the first and only one.
    writeFileSync(join(h.workspace, 'config.py'), 'edited by hand\n')
    await expect.poll(() => pushedMarks(h, from), { timeout: 10_000 }).toEqual([true])
  })
})
