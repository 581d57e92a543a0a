// The explorer's projection of a session (core/views/session-graph.ts) on hand-made records: an
// agent's rewind drawn as one report node with its exploration under it, and each turn's outcome
// (issue 12: "the report is drawn twice", "failed and stopped turns look like finished ones").
import { describe, expect, it } from 'vitest'
import { loadSessionText } from '../session/load'
import { INTERRUPTED_RESULT } from '../agent/context'
import { buildSessionGraph, buildTranscript } from './session-graph'
import { TURN_STOPPED_TYPE } from '../session/tree'
import { assistant, header, jsonl, toolResult, user } from '../../../test/session/builders'

const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`

/** An answer as the agent writes a finished one: the model's name and a stop reason. */
const answer = (uuid: string, parentUuid: string, content: unknown[] = []) => ({
  ...assistant(uuid, parentUuid),
  message: {
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    stop_reason: 'end_turn',
    content: content.length > 0 ? content : [{ type: 'text', text: `answer ${uuid}` }]
  }
})
const toolCall = (uuid: string, parentUuid: string, name: string) =>
  answer(uuid, parentUuid, [{ type: 'tool_use', id: `t-${uuid}`, name, input: {} }])
const stamped = <T extends object>(record: T, second: number) => ({
  ...record,
  timestamp: at(second)
})

function graphOf(records: unknown[], running = false, answering = false) {
  const tree = loadSessionText(jsonl([header(), ...records])).tree
  return buildSessionGraph(tree, 's1', undefined, {
    filesAt: { nodeId: null, changedSince: false },
    undo: null,
    redo: null,
    running,
    answering
  })
}

//   p1 ── a1 (calls checkpoint) ── r1 (its result)
//                                   ├── c1 checkpoint note ── g1 Glob ── g1r ── k1 Grep ── k1r   (explored)
//                                   └── bs branch summary ── rr rewind report ── a2 answer
//                                                             └·· exploration drawn here
const agentRewind = [
  stamped(user('p1', null, 'find the settings'), 1),
  stamped(toolCall('a1', 'p1', 'checkpoint'), 2),
  stamped(toolResult('r1', 'a1'), 3),
  stamped(
    {
      type: 'custom_message',
      uuid: 'c1',
      parentUuid: 'r1',
      customType: 'checkpoint-active',
      hidden: true,
      content: 'A checkpoint is active'
    },
    4
  ),
  stamped(toolCall('g1', 'c1', 'Glob'), 5),
  stamped(toolResult('g1r', 'g1'), 6),
  stamped(toolCall('k1', 'g1r', 'Grep'), 7),
  stamped(toolResult('k1r', 'k1'), 8),
  stamped(
    {
      type: 'branch_summary',
      uuid: 'bs',
      parentUuid: 'r1',
      fromId: 'r1',
      summary: 'All settings live in config.py',
      details: { startedAt: at(3) }
    },
    9
  ),
  stamped(
    {
      type: 'custom_message',
      uuid: 'rr',
      parentUuid: 'bs',
      customType: 'rewind-report',
      hidden: true,
      content: 'Report of the exploration: All settings live in config.py',
      details: { report: 'All settings live in config.py', startedAt: at(3), rewoundAt: at(9) }
    },
    9
  ),
  stamped(answer('a2', 'rr'), 10)
]

describe('an agent rewind in the graph', () => {
  it('names the exploration by its tools where another node refers to it (a merge of it)', () => {
    const merge = {
      type: 'merge',
      uuid: 'm1',
      parentUuid: 'a2',
      fromUuid: 'k1r',
      baseUuid: 'r1',
      summary: 'All settings live in config.py',
      summarySource: 'report',
      files: [],
      restoreId: 'restore-1'
    }
    const graph = graphOf([...agentRewind, stamped(merge, 11)])
    expect(graph.nodes.find((n) => n.id === 'm1')?.title).toBe(
      'Brought in conclusions from “Explored with Glob, Grep”'
    )
    // The transcript shows the report as the person reads it: no record ids, no model's tags.
    const tree = loadSessionText(jsonl([header(), ...agentRewind, stamped(merge, 11)])).tree
    const shown = buildTranscript(tree, 'm1').at(-1)?.content
    expect(shown).toBe(
      'Brought in another branch of the session.\n\nReport of that exploration:\n\nAll settings live in config.py'
    )
  })

  it('is one report node, with the exploration drawn under it', () => {
    const graph = graphOf(agentRewind)
    expect(graph.nodes.map((n) => [n.id, n.kind, n.parentId])).toEqual([
      ['p1', 'turn', null],
      ['rr', 'rewind_report', 'p1'],
      ['c1', 'exploration', 'rr']
    ])
    const exploration = graph.nodes.find((n) => n.kind === 'exploration')
    expect(exploration).toMatchObject({
      title: 'Explored with Glob, Grep',
      onActivePath: false,
      branchLeafUuid: 'k1r'
    })
    expect(graph.nodes.find((n) => n.id === 'rr')?.title).toBe('All settings live in config.py')
    expect(graph.checkpointLinks).toEqual([{ from: 'p1', to: 'rr' }])
    // The turn went on in its report: finished, like the report itself.
    expect(graph.nodes.map((n) => n.outcome)).toEqual(['done', 'done', 'done'])
  })
})

describe('a turn’s outcome', () => {
  it('is done when the model ended its turn', () => {
    expect(graphOf([user('p1', null), answer('a1', 'p1')]).nodes[0]?.outcome).toBe('done')
  })

  it('is stopped when its tool calls were answered "Interrupted"', () => {
    const interrupted = user('r1', 'a1', [
      { type: 'tool_result', tool_use_id: 't-a1', content: INTERRUPTED_RESULT, is_error: true }
    ])
    const graph = graphOf([user('p1', null), toolCall('a1', 'p1', 'Bash'), interrupted])
    expect(graph.nodes[0]?.outcome).toBe('stopped')
  })

  it('is stopped when the answer was cut off (kept without model or stop reason)', () => {
    expect(graphOf([user('p1', null), assistant('a1', 'p1')]).nodes[0]?.outcome).toBe('stopped')
  })

  it('is stopped when the agent noted a stop before the model answered', () => {
    const note = (uuid: string, parentUuid: string) =>
      stamped(
        {
          type: 'custom_message',
          uuid,
          parentUuid,
          customType: TURN_STOPPED_TYPE,
          hidden: true,
          content: 'stopped'
        },
        9
      )
    expect(graphOf([user('p1', null), note('n1', 'p1')]).nodes[0]?.outcome).toBe('stopped')
    const afterTools = [user('p1', null), toolCall('a1', 'p1', 'Read'), toolResult('r1', 'a1')]
    expect(graphOf([...afterTools, note('n1', 'r1')]).nodes[0]?.outcome).toBe('stopped')
  })

  // Issue 26: "a turn stopped during a compaction shows no `stopped` badge."
  it('is the compaction’s own when the agent compacted mid-turn: stopped, done or failed', () => {
    const compaction = (uuid: string, parentUuid: string, trigger: string) => ({
      type: 'compaction',
      uuid,
      parentUuid,
      timestamp: at(5),
      summary: '# Goal\nkeep going',
      firstKeptUuid: parentUuid,
      tokensBefore: 1000,
      trigger
    })
    const stoppedNote = {
      type: 'custom_message',
      uuid: 'n1',
      parentUuid: 'c1',
      timestamp: at(6),
      customType: TURN_STOPPED_TYPE,
      hidden: true,
      content: 'stopped'
    }
    const outcomes = (...records: unknown[]) =>
      graphOf([user('p1', null), ...records]).nodes.map((n) => [n.kind, n.outcome])
    // The turn went on in the compaction's node: that node says how the turn ended.
    expect(outcomes(compaction('c1', 'p1', 'auto'), stoppedNote)).toEqual([
      ['turn', 'done'],
      ['compaction', 'stopped']
    ])
    expect(outcomes(compaction('c1', 'p1', 'auto'), assistant('a1', 'c1'))).toEqual([
      ['turn', 'done'],
      ['compaction', 'stopped']
    ])
    expect(outcomes(compaction('c1', 'p1', 'overflow'), answer('a1', 'c1'))).toEqual([
      ['turn', 'done'],
      ['compaction', 'done']
    ])
    // Nothing after a compaction made mid-turn: the model never answered.
    expect(outcomes(compaction('c1', 'p1', 'auto'))).toEqual([
      ['turn', 'done'],
      ['compaction', 'failed']
    ])
    // One the user asked for ("Summarize up to here", /compact) ends there.
    expect(outcomes(answer('a0', 'p1'), compaction('c1', 'a0', 'manual'))).toEqual([
      ['turn', 'done'],
      ['compaction', 'done']
    ])
  })

  it('is failed when nothing answered the prompt or the tool results', () => {
    expect(graphOf([user('p1', null)]).nodes[0]?.outcome).toBe('failed')
    const afterTools = [user('p1', null), toolCall('a1', 'p1', 'Read'), toolResult('r1', 'a1')]
    expect(graphOf(afterTools).nodes[0]?.outcome).toBe('failed')
    // A next prompt typed after the failure leaves the failed turn failed.
    const graph = graphOf([user('p1', null), user('p2', 'p1'), answer('a2', 'p2')])
    expect(graph.nodes.map((n) => n.outcome)).toEqual(['failed', 'done'])
  })

  it('is running at the leaf of a session another program is writing, while it waits on an answer or a tool', () => {
    const watched = (...records: unknown[]) =>
      graphOf(records, false, true).nodes.map((n) => n.outcome)
    // A prompt not yet answered, a tool still running, tool results the model has yet to read.
    expect(watched(user('p1', null))).toEqual(['running'])
    expect(watched(user('p1', null), toolCall('a1', 'p1', 'Bash'))).toEqual(['running'])
    const afterTools = [user('p1', null), toolCall('a1', 'p1', 'Read'), toolResult('r1', 'a1')]
    expect(watched(...afterTools)).toEqual(['running'])
    // Not a turn that ended: answered, interrupted, or one before the leaf's.
    expect(watched(user('p1', null), answer('a1', 'p1'))).toEqual(['done'])
    const interrupted = user('r1', 'a1', [
      { type: 'tool_result', tool_use_id: 't-a1', content: INTERRUPTED_RESULT, is_error: true }
    ])
    expect(watched(user('p1', null), toolCall('a1', 'p1', 'Bash'), interrupted)).toEqual([
      'stopped'
    ])
    expect(watched(user('p1', null), user('p2', 'p1'))).toEqual(['failed', 'running'])
    // Not watched growing: the unanswered prompt is a failed turn, as before.
    expect(graphOf([user('p1', null)]).nodes[0]?.outcome).toBe('failed')
  })

  it('is running for the turn holding the leaf while the agent runs', () => {
    const graph = graphOf([user('p1', null), answer('a1', 'p1'), user('p2', 'a1')], true)
    expect(graph.nodes.map((n) => n.outcome)).toEqual(['done', 'running'])
  })
})
