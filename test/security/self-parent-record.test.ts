// Finding (hardening issue, item 7): "A record that is its own parent crashes `inspect`,
// `rewind` and `serve` (endless `pathTo`, 2.5 GB, out of memory)." A self-parent record and
// any parentUuid cycle must be listed as a problem and drawn as a root; the rest loads.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadSessionText } from '../../src/core/session/load'
import { buildSessionGraph } from '../../src/core/views/session-graph'
import { runCli } from '../support/cli'
import { assistant, header, jsonl, user } from '../session/builders'

const uuids = (records: { uuid: string }[]) => records.map((r) => r.uuid)

/** A session whose second prompt names itself as its parent, with a real workspace. */
function selfParentSession(): { file: string; home: string; workspace: string } {
  const base = mkdtempSync(join(tmpdir(), 'rs-self-parent-'))
  const workspace = join(base, 'ws')
  mkdirSync(workspace)
  const file = join(base, 'session.jsonl')
  writeFileSync(
    file,
    jsonl([
      { ...header(), cwd: workspace },
      user('u1', null),
      assistant('a1', 'u1'),
      user('loop', 'loop'),
      assistant('a2', 'loop')
    ])
  )
  return { file, home: join(base, 'home'), workspace }
}

// A child with a small heap: without the fix the endless walk runs out of memory quickly.
const smallHeap = { NODE_OPTIONS: '--max-old-space-size=128' }

describe('a record that is its own parent', () => {
  it('is listed as a cycle and drawn as a root; the active path through it ends there', () => {
    const loaded = loadSessionText(
      jsonl([header(), user('u1', null), user('loop', 'loop'), assistant('a2', 'loop')])
    )
    expect(loaded.problems).toEqual([
      { line: 3, kind: 'cycle', message: 'loop names itself as its parent: shown as a root' }
    ])
    expect(uuids(loaded.tree.children(null))).toEqual(['u1', 'loop'])
    expect(uuids(loaded.tree.activePath())).toEqual(['loop', 'a2'])
    expect(uuids(loaded.tree.pathTo('loop'))).toEqual(['loop'])
  })

  it('the graph the app and `serve` draw holds it as a root', () => {
    const { tree } = loadSessionText(
      jsonl([header(), user('u1', null), user('loop', 'loop'), assistant('a2', 'loop')])
    )
    const graph = buildSessionGraph(tree, 's1')
    expect(graph.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['u1', 'loop']))
  })

  it('a longer cycle written before its members is broken once, at the record closing it', () => {
    // c → b → a → c, each naming a parent that comes later in the file.
    const loaded = loadSessionText(
      jsonl([header(), user('a', 'c'), assistant('b', 'a'), user('c', 'b')])
    )
    expect(loaded.problems.map((p) => [p.line, p.kind])).toEqual([[2, 'cycle']])
    expect(uuids(loaded.tree.children(null))).toEqual(['a'])
    expect(uuids(loaded.tree.activePath())).toEqual(['a', 'b', 'c'])
  })

  it('`inspect` prints the tree and the problem instead of running out of memory', async () => {
    const { file } = selfParentSession()
    const run = await runCli(['inspect', file, '--json'], { env: smallHeap })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const out = JSON.parse(run.stdout)
    expect(out.problems).toEqual([{ line: 4, kind: 'cycle', message: expect.any(String) }])
    expect(out.activePath).toEqual(['loop', 'a2'])
  })

  it('`rewind --dry-run` previews a rewind of it instead of running out of memory', async () => {
    const { file, home, workspace } = selfParentSession()
    const run = await runCli(['rewind', file, '--to', '1', '--dry-run', '--cwd', workspace], {
      env: { ...smallHeap, REWIND_STUDIO_HOME: home }
    })
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('Dry run: nothing was changed.')
    expect(run.code).toBe(0)
  })
})
