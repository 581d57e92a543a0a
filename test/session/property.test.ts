// Random sequences of append / rewind / navigate / summary / label / resume / crash-truncate run
// against the real store on real files, checked after every step against a tiny in-memory model:
// the file is always a byte-prefix of its later self (until a simulated crash cuts it), and both
// the store's live tree and a fresh load of the file give the model's nodes, leaf and active path.
import fc from 'fast-check'
import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { SessionStore } from '../../src/core/session/store'
import type { SessionTree } from '../../src/core/session/tree'

/** One line of the model: a node, a leaf move, or a record that leaves the leaf alone. */
type ModelLine =
  | { kind: 'node'; uuid: string; parent: string | null }
  | { kind: 'move'; leaf: string | null }
  | { kind: 'other' }

class Model {
  lines: ModelLine[] = []
  nodes(): Map<string, string | null> {
    const out = new Map<string, string | null>()
    for (const l of this.lines) if (l.kind === 'node') out.set(l.uuid, l.parent)
    return out
  }
  leaf(): string | null {
    let leaf: string | null = null
    for (const l of this.lines) {
      if (l.kind === 'node') leaf = l.uuid
      else if (l.kind === 'move') leaf = l.leaf
    }
    return leaf
  }
  path(): string[] {
    const nodes = this.nodes()
    const path: string[] = []
    for (let at = this.leaf(); at !== null; at = nodes.get(at) ?? null) path.push(at)
    return path.reverse()
  }
}

const Op = fc.record({
  kind: fc.constantFrom(
    'user',
    'assistant',
    'user',
    'assistant',
    'rewind',
    'navigate',
    'summary',
    'label',
    'reopen',
    'crash'
  ),
  pick: fc.nat(),
  cut: fc.double({ min: 0, max: 1, noNaN: true })
})

function expectMatches(tree: SessionTree, model: Model): void {
  const nodes = model.nodes()
  expect(tree.size).toBe(nodes.size)
  for (const [uuid, parent] of nodes) expect(tree.get(uuid)?.parentUuid).toBe(parent)
  expect(tree.leafUuid).toBe(model.leaf())
  expect(tree.activePath().map((r) => r.uuid)).toEqual(model.path())
}

describe('session store against an in-memory model', () => {
  it('keeps the file append-only and the tree equal to the model through random sequences', () => {
    fc.assert(
      fc.property(fc.array(Op, { minLength: 1, maxLength: 25 }), (ops) => {
        const home = mkdtempSync(join(tmpdir(), 'rs-prop-'))
        const model = new Model()
        let store = SessionStore.create({ home, cwd: '/p' })
        // A new session's file is made with its first record.
        const first = store.appendMessage({ role: 'user', content: 'start' })
        model.lines.push({ kind: 'node', uuid: first.uuid, parent: null })
        let onDisk = readFileSync(store.file)
        /** Byte ranges [start, end) of each model line's JSON (newline excluded), in order. */
        let spans: { start: number; end: number }[] = []
        try {
          for (const op of ops) {
            const nodes = [...model.nodes().keys()]
            const pickNode = () => nodes[op.pick % nodes.length] ?? null
            const sizeBefore = readFileSync(store.file).length
            let line: ModelLine | null = null
            switch (op.kind) {
              case 'user':
              case 'assistant': {
                const r = store.appendMessage({ role: op.kind, content: `m${op.pick}` })
                line = { kind: 'node', uuid: r.uuid, parent: model.leaf() }
                break
              }
              case 'rewind': {
                const checkpoint = pickNode()
                if (checkpoint === null) break
                const leaf = model.nodes().get(checkpoint) ?? null
                store.appendRewind({ leafUuid: leaf, checkpointUuid: checkpoint, mode: 'both' })
                line = { kind: 'move', leaf }
                break
              }
              case 'navigate': {
                const leaf = pickNode()
                store.appendNavigate({ leafUuid: leaf, reason: 'switch-branch' })
                line = { kind: 'move', leaf }
                break
              }
              case 'summary': {
                const from = pickNode()
                const r = store.appendBranchSummary({ fromId: from ?? 'root', summary: 's' })
                line = { kind: 'node', uuid: r.uuid, parent: from }
                break
              }
              case 'label': {
                const target = pickNode()
                if (target === null) break
                store.appendLabel({ targetUuid: target, label: `l${op.pick}` })
                line = { kind: 'other' }
                break
              }
              case 'reopen':
                store.close()
                store = SessionStore.open(store.file)
                expect(store.readOnlyReason).toBeNull()
                break
              case 'crash': {
                const last = spans[spans.length - 1]
                if (last === undefined) break
                // The writer dies mid-write of its last record: cut at a random byte of that line.
                store.close()
                const at = last.start + Math.floor(op.cut * (last.end - last.start + 1))
                truncateSync(store.file, at)
                if (at < last.end) {
                  model.lines.pop()
                  spans.pop()
                }
                store = SessionStore.open(store.file)
                expect(store.tornTail).toBe(at > last.start && at < last.end)
                onDisk = readFileSync(store.file)
                break
              }
            }
            if (line !== null) {
              const after = readFileSync(store.file)
              model.lines.push(line)
              // The JSON starts after a '\n' written first when the file did not end with one.
              const start = after.lastIndexOf('\n', after.length - 2) + 1
              spans.push({ start: Math.max(start, sizeBefore), end: after.length - 1 })
            }
            const now = readFileSync(store.file)
            expect(now.subarray(0, onDisk.length).equals(onDisk)).toBe(true)
            onDisk = now
            expectMatches(store.tree(), model)
            expectMatches(readSessionFile(store.file).tree, model)
          }
        } finally {
          store.close()
          spans = []
          rmSync(home, { recursive: true, force: true })
        }
      }),
      { numRuns: 60 }
    )
  })
})
