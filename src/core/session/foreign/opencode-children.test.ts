// Which OpenCode sessions the list leaves out as another's sub-agent, on rows as a damaged or
// hostile database could hold them: no id, a parent that is not there, a loop, one id twice,
// more children, or deeper, than a session's reading draws.
import { describe, expect, it } from 'vitest'
import { drawnAsSubagents, takeNearestCall, type TaskCall } from './opencode-children'
import { MAX_SUBAGENT_DEPTH, MAX_SUBAGENT_RUNS } from './subagent-nesting'

const row = (id: unknown, parent_id: unknown = null, time_created: unknown = 0) => ({
  id,
  parent_id,
  time_created
})

describe("OpenCode's child sessions", () => {
  it('leaves out the children of a listed session only, whatever else the rows hold', () => {
    const rows = [
      row(null),
      row('ses_root'),
      row('ses_child', 'ses_root'),
      // the child's own child is read with it
      row('ses_grandchild', 'ses_child'),
      row('ses_orphan', 'ses_gone'),
      row('ses_a', 'ses_b'),
      row('ses_b', 'ses_a'),
      row('ses_self', 'ses_self'),
      // one id twice, the second naming the first's child its parent: no loop followed
      row('ses_child', 'ses_grandchild'),
      row(7, 'ses_root')
    ]
    expect([...drawnAsSubagents(rows)].sort()).toEqual(['ses_child', 'ses_grandchild'])
  })

  it('lists a descendant deeper than a reading draws, and leaves out what it draws itself', () => {
    const chain = Array.from({ length: MAX_SUBAGENT_DEPTH + 2 }, (_, i) =>
      row(`ses_d${i + 1}`, i === 0 ? 'ses_root' : `ses_d${i}`, i)
    )
    const drawn = drawnAsSubagents([row('ses_root'), ...chain])
    const deepest = `ses_d${MAX_SUBAGENT_DEPTH + 1}`
    expect(drawn.has(deepest)).toBe(false)
    expect(drawn.size).toBe(MAX_SUBAGENT_DEPTH + 1)
    expect(drawn.has(`ses_d${MAX_SUBAGENT_DEPTH + 2}`)).toBe(true)
  })

  it('lists the children past the most a session draws', () => {
    const rows = [
      row('ses_root'),
      ...Array.from({ length: MAX_SUBAGENT_RUNS + 2 }, (_, i) => row(`ses_c${i}`, 'ses_root', i))
    ]
    const drawn = drawnAsSubagents(rows)
    expect(drawn.size).toBe(MAX_SUBAGENT_RUNS)
    expect(drawn.has(`ses_c${MAX_SUBAGENT_RUNS}`)).toBe(false)
  })

  it('takes the call that started nearest a child, once, and none without times', () => {
    const call = (callId: string, started: number | null): TaskCall => ({
      callId,
      uuid: callId,
      sessionId: null,
      description: null,
      started
    })
    const calls = [call('a', 100), call('b', 200), call('c', null)]
    expect(takeNearestCall(calls, 195)?.callId).toBe('b')
    expect(takeNearestCall(calls, 195)?.callId).toBe('a')
    expect(takeNearestCall(calls, 195)).toBeUndefined()
    expect(takeNearestCall([call('d', 1)], null)).toBeUndefined()
  })
})
