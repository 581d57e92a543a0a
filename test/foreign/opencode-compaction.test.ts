// An OpenCode compaction, on the real run of test/fixtures/opencode/compact (make/make.sh OUT
// compact, OpenCode 1.18.33 with the model's context made tiny): after the first step OpenCode
// compacted the session on its own (a user message holding a `compaction` part, then an
// assistant message `summary: true` whose text is the summary), went on with its synthetic
// "Continue…" message and answered; it was stopped in the next compaction, whose summary has no
// text yet. The summary is drawn as Claude Code's is, a compaction node, and what the model saw
// after it starts there, as OpenCode's own history (filterCompacted) starts at the compaction.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contextPath } from '../../src/core/session/continue-foreign'
import { type LoadedSession, readSessionFile } from '../../src/core/session/load'
import { buildSessionGraph, indexTurns } from '../../src/core/views/session-graph'
import { OPENCODE_COMPACTED, codexHome, openCodeHome, openCodeJsonHome } from './tool-homes'

const SUMMARY = 'Summary: config.txt was written (mode=a).'

function expectTheCompaction(loaded: LoadedSession): void {
  expect(loaded.problems).toEqual([])
  const { tree } = loaded
  expect(tree.checkpoints().map((c) => c.prompt)).toEqual(['"write the config"'])
  const graph = buildSessionGraph(tree, OPENCODE_COMPACTED, indexTurns(tree))
  expect(graph.nodes.map((n) => [n.kind, n.title])).toEqual([
    ['turn', '"write the config"'],
    ['compaction', SUMMARY]
  ])
  expect(graph.nodes[1]?.parentId).toBe(graph.nodes[0]?.id)
  expect(tree.summaries().map((s) => [s.kind, s.summary])).toEqual([['compaction', SUMMARY]])
  // What OpenCode's model was sent after it: the summary, then the answer that followed.
  const context = contextPath(tree, tree.leafUuid)
  expect(context.map((r) => [r.type, JSON.stringify(r).includes(SUMMARY)])).toEqual([
    ['user', true],
    ['assistant', false]
  ])
  expect(JSON.stringify(context[1])).toContain('A title')
}

describe('an OpenCode compaction', () => {
  it('in the database: the summary is a compaction node, and the context starts there', () => {
    const oc = openCodeHome('workspace-after', 'opencode/compact')
    expectTheCompaction(readSessionFile(`${oc.db}#${OPENCODE_COMPACTED}`))
  })

  it('in the JSON storage: the same', () => {
    const base = codexHome().base
    const written = openCodeJsonHome(
      join(base, 'ws'),
      join(base, 'opencode'),
      OPENCODE_COMPACTED,
      'opencode/compact'
    )
    written.messages.forEach(written.write)
    expectTheCompaction(readSessionFile(written.sessionFile))
  })
})
