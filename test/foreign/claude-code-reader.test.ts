// The Claude Code reader on real sessions made with the Claude Code CLI (test/fixtures/claude-code)
// and the corpus, and on variants synthesized from them: a real rewind branch, parallel tool
// calls, file history as each turn's changes, compactions with and without their logical parent,
// sub-agents in files and inline, and records of a kind no version we know writes.
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import {
  buildSessionGraph,
  indexTurns,
  rawRecordsOf,
  subagentNodes
} from '../../src/core/views/session-graph'
import { copyFixture, readLines, writeLines } from './cc-fixtures'
import { corpusFile, haveCorpus } from '../support/corpus'

const prompts = (loaded: ReturnType<typeof readSessionFile>, leaf: string | null) =>
  loaded.tree.checkpoints(loaded.tree.pathTo(leaf)).map((c) => c.prompt)

describe('a Claude Code session with a real /rewind (restore code and conversation)', () => {
  const cc = copyFixture('rewind-parallel')
  const loaded = readSessionFile(cc.file)
  const { tree } = loaded

  it('is a tree: the prompt typed after the rewind is a branch beside the one rewound', () => {
    expect(loaded.format).toBe('claude-code')
    expect(loaded.problems).toEqual([])
    expect(tree.header).toMatchObject({ sessionId: cc.sessionId, cwd: '/tmp/cc-offline.fZeFtF/ws' })
    const [abandoned, active] = tree.leaves()
    expect(prompts(loaded, abandoned ?? null)).toEqual([
      'create the config',
      'make two notes',
      'change the mode'
    ])
    expect(prompts(loaded, active ?? null)).toEqual(['create the config', 'instead write a readme'])
    expect(tree.leafUuid).toBe(active)
    // Both branches leave the end of turn 1: two prompts under one parent.
    const [, second] = tree.checkpoints(tree.pathTo(abandoned ?? null))
    const siblings = tree.children(tree.get(second?.uuid ?? '')?.parentUuid ?? null)
    expect(
      siblings.map((r) => r.type === 'user' && tree.checkpoints(tree.pathTo(r.uuid)).length)
    ).toEqual([2, 2])
  })

  it('parallel tool calls are one chain: calls, then their results, no branch', () => {
    const path = tree.pathTo(tree.leaves()[0] ?? null)
    const turn = path.slice(
      path.findIndex((r) => r.type === 'user' && JSON.stringify(r).includes('make two notes'))
    )
    expect(turn.slice(0, 5).map((r) => r.type)).toEqual([
      'user',
      'assistant',
      'assistant',
      'user',
      'user'
    ])
    // Only the rewind branches the tree: two leaves, whatever the parallel calls did.
    expect(tree.leaves()).toHaveLength(2)
  })

  it("files changed per turn come from Claude Code's snapshots; after a branch's last turn the after-state is unknown", () => {
    const [create, notes, mode] = tree.checkpoints(tree.pathTo(tree.leaves()[0] ?? null))
    const changes = (uuid: string | undefined) =>
      tree.fileChanges(uuid ?? '').map((f) => [f.path, f.before, f.after, f.afterUnknown === true])
    expect(changes(create?.uuid)).toEqual([
      ['config.txt', null, null, true],
      ['config.txt', null, 'b79470cdb821c868@v2', false]
    ])
    expect(changes(notes?.uuid)).toEqual([
      ['notes/one.txt', null, null, true],
      ['notes/two.txt', null, null, true],
      ['notes/two.txt', null, '2f3ae633e38faf59@v2', false],
      ['notes/one.txt', null, 'dd8fe7e868e45905@v2', false]
    ])
    // Its Edits changed files tracked already, and no snapshot came after it: nothing to say.
    expect(changes(mode?.uuid)).toEqual([])
    expect(tree.checkpoints().map((c) => c.filesChanged)).toEqual([1, 1])
  })
})

describe('a Claude Code session with sub-agents and two /compact', () => {
  it('keeps every turn reachable through both compactions, which are drawn as compaction nodes', () => {
    const cc = copyFixture('compact-subagents')
    const loaded = readSessionFile(cc.file)
    const { tree } = loaded
    expect(loaded.problems).toEqual([])
    // The /compact commands ran locally: they are no prompts.
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual([
      'delegate the survey',
      'edit the survey',
      'after the compaction',
      'last words'
    ])
    const graph = buildSessionGraph(tree, cc.sessionId)
    expect(graph.nodes.map((n) => n.kind)).toEqual([
      'turn',
      'turn',
      'compaction',
      'turn',
      'compaction',
      'turn'
    ])
    expect(graph.nodes.every((n) => n.onActivePath)).toBe(true)
    // A compaction answers nothing: it is no failed turn.
    expect(graph.nodes.map((n) => n.outcome)).toEqual(graph.nodes.map(() => 'done'))
  })

  it('a compaction whose logical parent is missing follows the record before it, as a problem', () => {
    // What a second /compact can leave (anthropics/claude-code #92089): the boundary names a
    // parent that is not in the file.
    const cc = copyFixture('compact-subagents')
    const lines = readLines(cc.file)
    const boundary = lines.find((r) => r.subtype === 'compact_boundary')
    if (boundary === undefined) throw new Error('the fixture has a compaction')
    const missing = 'f0f0f0f0-0000-4000-8000-000000000000'
    boundary.logicalParentUuid = missing
    writeLines(cc.file, lines)

    const loaded = readSessionFile(cc.file)
    const problem = loaded.problems.find((p) => p.message.includes(missing))
    expect(problem).toMatchObject({ kind: 'missing-parent' })
    expect(problem?.message).toContain('attached after')
    // The turns before it stay on the active path.
    expect(loaded.tree.checkpoints().map((c) => c.prompt)).toEqual([
      'delegate the survey',
      'edit the survey',
      'after the compaction',
      'last words'
    ])
  })

  it('sub-agent transcripts (subagents/agent-*.jsonl) are runs of the Agent calls that started them', () => {
    const cc = copyFixture('compact-subagents')
    const loaded = readSessionFile(cc.file)
    const runs = loaded.subagents
    expect(runs.map((r) => [r.title, r.toolUseId, r.source])).toEqual([
      ['survey B', 'toolu_fake_2', 'agent-a722bad0ba90f9261.jsonl'],
      ['survey A', 'toolu_fake_1', 'agent-af25d23cc3a5722df.jsonl']
    ])
    const callers = runs.map((r) => loaded.tree.get(r.parentUuid ?? ''))
    expect(
      callers.map((c) => c?.type === 'assistant' && JSON.stringify(c.message.content))
    ).toEqual([expect.stringContaining('toolu_fake_2'), expect.stringContaining('toolu_fake_1')])
    expect(runs[1]?.tree.checkpoints().map((c) => c.prompt)).toEqual([
      'SUBTASK-A: write survey-a.txt'
    ])
    // In the graph: sub-agent nodes under the turn whose tool calls ran them.
    const index = indexTurns(loaded.tree)
    const graph = buildSessionGraph(loaded.tree, cc.sessionId, index)
    const nodes = subagentNodes(runs, index, graph.nodes)
    const delegate = graph.nodes[0]
    expect(nodes.map((n) => [n.kind, n.parentId, n.title])).toEqual([
      ['subagent', delegate?.id, 'survey B'],
      ['subagent', delegate?.id, 'survey A']
    ])
  })

  it('keeps records and fields of kinds it does not know, shown raw in their node, never fatal', () => {
    const cc = copyFixture('compact-subagents')
    const lines = readLines(cc.file)
    const at = lines.findIndex(
      (r) => r.type === 'user' && JSON.stringify(r).includes('edit the survey')
    )
    const prompt = lines[at] as Record<string, unknown>
    prompt.someFieldOfANewerVersion = { kept: true }
    const unknown = {
      type: 'hologram',
      uuid: 'aaaaaaaa-1111-4111-8111-aaaaaaaaaaaa',
      parentUuid: prompt.uuid,
      sessionId: cc.sessionId,
      timestamp: '2026-11-30T21:47:30.000Z',
      payload: [1, 2, 3]
    }
    lines.splice(at + 1, 0, unknown, { type: 'no-uuid-either', note: 'kept too' })
    writeLines(cc.file, lines)

    const loaded = readSessionFile(cc.file)
    expect(loaded.problems).toEqual([])
    expect(loaded.tree.checkpoints()).toHaveLength(4)
    const turn = String(prompt.uuid)
    const raw = rawRecordsOf(loaded.tree, indexTurns(loaded.tree), turn, loaded.lines)
    const values = raw.map((r) => r.record)
    expect(values).toContainEqual(unknown)
    expect(values).toContainEqual({ type: 'no-uuid-either', note: 'kept too' })
    expect(values).toContainEqual(
      expect.objectContaining({ someFieldOfANewerVersion: { kept: true } })
    )
    expect(
      raw.find(
        (r) => r.record === values.find((v) => (v as { type?: unknown }).type === 'hologram')
      )?.line
    ).toBe(at + 2)
  })
})

describe.skipIf(!haveCorpus)('the corpus: Claude Code 1.0.108, sidechains inline', () => {
  it('inline sidechain records become runs linked to the Task calls by their prompt', () => {
    const loaded = readSessionFile(
      corpusFile('claude-code', 'claude-code-viewer_5c0375b4_v1.0.108_inline-sidechain.jsonl')
    )
    expect(loaded.problems).toEqual([])
    const runs = loaded.subagents
    expect(runs).toHaveLength(2)
    expect(runs.map((r) => r.source)).toEqual(['inline', 'inline'])
    expect(runs.map((r) => r.tree.size)).toEqual([7, 15])
    for (const run of runs) {
      const caller = loaded.tree.get(run.parentUuid ?? '')
      expect(caller?.type).toBe('assistant')
      expect(JSON.stringify(caller)).toContain(run.toolUseId ?? 'none')
    }
  })
})
