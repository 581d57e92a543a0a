// The summarizer's pieces: the request (newest material first into the budget, the structure,
// the user's instructions), the files lists computed from the records, the cut a compaction makes,
// and the model's view after a compaction.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { SessionTree, type TreeRecord } from '../../src/core/session/tree'
import { header } from '../session/builders'
import { buildMessages, modelView } from '../../src/core/agent/context'
import { keepBudget, planCompaction } from '../../src/core/agent/summary/compaction'
import { filesTouched } from '../../src/core/agent/summary/files-touched'
import {
  conversationText,
  summaryRequest,
  summaryWithFiles
} from '../../src/core/agent/summary/summary-request'
import { contextUsage, estimateRecordsTokens } from '../../src/core/agent/summary/tokens'

const at = '2026-01-01T00:00:00.000Z'
let n = 0
const id = () => `r${++n}`
function chain(...records: Omit<TreeRecord, 'uuid' | 'parentUuid' | 'timestamp'>[]): TreeRecord[] {
  const out: TreeRecord[] = []
  for (const r of records) {
    out.push({
      ...r,
      uuid: id(),
      parentUuid: out.at(-1)?.uuid ?? null,
      timestamp: at
    } as TreeRecord)
  }
  return out
}
const prompt = (text: string) =>
  ({ type: 'user', message: { role: 'user', content: text } }) as const
const answer = (text: string) =>
  ({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text }] }
  }) as const
const call = (toolId: string, name: string, input: object) =>
  ({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', id: toolId, name, input }] }
  }) as const
const result = (toolId: string, content = 'ok') =>
  ({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content }] }
  }) as const

describe('the summary request', () => {
  test('fills the budget newest first: the oldest entries are left out, with a line saying so', () => {
    const records = chain(
      prompt(`first ${'a'.repeat(400)}`),
      answer(`second ${'b'.repeat(400)}`),
      prompt(`third ${'c'.repeat(400)}`),
      answer(`fourth ${'d'.repeat(400)}`)
    )
    // Room for two entries of ~420 characters: 250 tokens = 1,000 characters.
    const text = conversationText(records, 250)
    expect(text).not.toContain('first')
    expect(text).not.toContain('second')
    expect(text).toMatch(/^\[2 earlier records left out: over the budget\]/)
    expect(text.indexOf('third')).toBeLessThan(text.indexOf('fourth'))
    expect(text.length).toBeLessThanOrEqual(1_000 + 60)
    expect(conversationText(records, 10_000)).not.toContain('left out')
  })

  test('the newest entry alone over the budget keeps its end', () => {
    const records = chain(prompt('older'), prompt(`start ${'x'.repeat(5_000)} the end`))
    const text = conversationText(records, 200)
    expect(text).toContain('the end')
    expect(text).toContain('[…cut]')
    expect(text).toMatch(/^\[1 earlier record left out: over the budget\]/)
    expect(text.length).toBeLessThanOrEqual(800 + 60)
  })

  test('is structured, carries the user’s instructions, no tools, and asks for a summary', () => {
    const request = summaryRequest({
      records: chain(prompt('make it faster'), call('t1', 'Read', { file_path: 'a.py' })),
      kind: 'branch',
      budgetTokens: 10_000,
      maxTokens: 500,
      instructions: 'focus on the timings'
    })
    expect(request.summary).toBe(true)
    expect(request.tools).toEqual([])
    expect(request.maxTokens).toBe(500)
    const text = JSON.stringify(request.messages)
    for (const heading of ['## Goal', '## Constraints', '### Done', '### In progress']) {
      expect(text).toContain(heading)
    }
    for (const heading of ['### Blocked', '## Key decisions', '## Next steps']) {
      expect(text).toContain(heading)
    }
    expect(text).toContain('focus on the timings')
    expect(text).toContain('[Assistant called Read]')
    expect(text).toContain('make it faster')
  })
})

describe('files read and modified', () => {
  test('come from the tool calls and the checkpoints’ file_change records, not the model', () => {
    const records = chain(
      prompt('p1'),
      call('t1', 'Read', { file_path: '/work/src/a.py' }),
      result('t1'),
      call('t2', 'Edit', { file_path: 'src/b.py', old_string: 'x', new_string: 'y' }),
      result('t2'),
      call('t3', 'Read', { file_path: 'src/b.py' }),
      result('t3'),
      call('t4', 'Bash', { command: 'touch c.txt' }),
      result('t4')
    )
    const first = records[0] as TreeRecord
    const tree = SessionTree.fromRecords([
      header(),
      ...records,
      {
        type: 'file_change',
        uuid: 'fc1',
        parentUuid: null,
        timestamp: at,
        checkpointUuid: first.uuid,
        path: 'c.txt',
        before: null,
        after: 'h',
        source: 'Bash'
      }
    ])
    const files = filesTouched(records, tree, '/work')
    expect(files).toEqual({ read: ['src/a.py'], modified: ['c.txt', 'src/b.py'] })
    expect(summaryWithFiles('S', files)).toBe(
      'S\n\n## Files\nRead: src/a.py\nModified: c.txt, src/b.py'
    )
    expect(summaryWithFiles('S', { read: [], modified: [] })).toBe('S')
  })

  test('a summary among the records brings its own lists along', () => {
    const records = chain({
      type: 'compaction',
      summary: 'before',
      firstKeptUuid: null,
      tokensBefore: 10,
      trigger: 'auto',
      details: { readFiles: ['old.py'], modifiedFiles: ['gone.py'] }
    })
    expect(filesTouched(records, SessionTree.fromRecords([]), '/work')).toEqual({
      read: ['old.py'],
      modified: ['gone.py']
    })
  })
})

describe('compaction', () => {
  const turn = (i: number, size = 400) => [
    prompt(`prompt ${i}`),
    call(`t${i}`, 'Read', { file_path: `f${i}.py` }),
    result(`t${i}`, 'x'.repeat(size)),
    answer(`done ${i}`)
  ]

  test('keeps the latest whole turns that fit, summarizes the rest', () => {
    const path = chain(...[1, 2, 3, 4, 5].flatMap((i) => turn(i)))
    const turnTokens = estimateRecordsTokens(path.slice(16))
    const cut = planCompaction(path, turnTokens * 2 + 1)
    expect(cut?.firstKeptUuid).toBe(path[12]?.uuid) // prompt 4
    expect(cut?.summarized).toEqual(path.slice(0, 12))
  })

  test('a last turn bigger than the budget is cut between steps, never inside one', () => {
    const path = chain(...turn(1), ...turn(2, 20_000))
    const cut = planCompaction(path, 100)
    // The last step (the answer after the big result): no cut between a call and its result.
    expect(cut?.firstKeptUuid).toBe(path[7]?.uuid)
    // Before a request the branch ends in the big result: its call is kept with it.
    expect(planCompaction(path.slice(0, 7), 100)?.firstKeptUuid).toBe(path[5]?.uuid)
  })

  test('the model sees the summary, then the kept records; compacting again builds on it', () => {
    const path = chain(...turn(1), ...turn(2), ...turn(3))
    const firstKept = path[4] as TreeRecord // prompt 2
    const compaction = {
      type: 'compaction',
      uuid: id(),
      parentUuid: (path.at(-1) as TreeRecord).uuid,
      timestamp: at,
      summary: 'turn 1 happened',
      firstKeptUuid: firstKept.uuid,
      tokensBefore: 999,
      trigger: 'auto'
    } as TreeRecord
    const after = chain(prompt('prompt 4'))
    const next = { ...(after[0] as TreeRecord), parentUuid: compaction.uuid } as TreeRecord
    const full = [...path, compaction, next]
    const view = modelView(full)
    expect(view.map((r) => r.uuid)).toEqual([
      compaction.uuid,
      ...path.slice(4).map((r) => r.uuid),
      next.uuid
    ])
    const messages = buildMessages(full)
    expect(JSON.stringify(messages[0])).toContain('turn 1 happened')
    expect(JSON.stringify(messages)).not.toContain('prompt 1')
    // Every tool_use is answered in the next message.
    messages.forEach((m, i) => {
      const uses = m.content.filter((b) => b.type === 'tool_use').length
      const results = (messages[i + 1]?.content ?? []).filter((b) => b.type === 'tool_result')
      expect(results.length).toBe(uses === 0 ? results.length : uses)
    })
    // A second compaction summarizes what the model sees: the first summary and turn 2 on.
    const again = planCompaction(full, estimateRecordsTokens([next]))
    expect(again?.summarized[0]).toBe(compaction)
    expect(again?.firstKeptUuid).toBe(next.uuid)
    // With only the summary before the one turn left, there is nothing to gain.
    const compacted = [
      ...full,
      { ...compaction, uuid: 'c2', parentUuid: next.uuid, firstKeptUuid: next.uuid } as TreeRecord
    ]
    expect(planCompaction(compacted, 1_000_000)).toBeNull()
  })

  test('keeps at most a fifth of the window, and 20,000 tokens', () => {
    expect(keepBudget(8_000)).toBe(1_600)
    expect(keepBudget(200_000)).toBe(20_000)
  })
})

describe('context usage', () => {
  const frame = () => ({ system: 's'.repeat(400), tools: [] })

  test('the last answer’s API usage plus an estimate of what came after it', () => {
    const records = chain(prompt('go'), {
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'hi' }],
        usage: { input_tokens: 1_000, cache_read_input_tokens: 500, output_tokens: 20 }
      }
    })
    expect(contextUsage(records, frame, 8_000)).toEqual({
      tokens: 1_520,
      window: 8_000,
      estimated: false
    })
    const more = [...records, ...chain(prompt('x'.repeat(400)))]
    const usage = contextUsage(more, frame, 8_000)
    expect(usage.estimated).toBe(true)
    expect(usage.tokens).toBeGreaterThan(1_620)
  })

  test('without usage, or only before a compaction, the whole request is estimated', () => {
    const records = chain(prompt('go'), answer('hi'))
    const usage = contextUsage(records, frame, 8_000)
    expect(usage).toMatchObject({ estimated: true })
    expect(usage.tokens).toBeGreaterThanOrEqual(100)
    const withOldUsage = chain(
      prompt('go'),
      {
        type: 'assistant',
        message: { role: 'assistant', content: [], usage: { input_tokens: 150_000 } }
      },
      {
        type: 'compaction',
        summary: 'short',
        firstKeptUuid: null,
        tokensBefore: 150_000,
        trigger: 'auto'
      }
    )
    expect(contextUsage(withOldUsage, frame, 8_000).tokens).toBeLessThan(1_000)
  })

  test('counted on from the last count gives what a count from scratch gives', () => {
    const record = fc.oneof(
      fc.string({ maxLength: 40 }).map((text) => prompt(text)),
      fc.string({ maxLength: 40 }).map((text) => answer(text)),
      fc.nat({ max: 5_000 }).map((input_tokens) => ({
        type: 'assistant' as const,
        message: { role: 'assistant', content: [], usage: { input_tokens } }
      })),
      fc.constant({
        type: 'compaction' as const,
        summary: 'earlier',
        firstKeptUuid: null,
        tokensBefore: 10,
        trigger: 'auto' as const
      })
    )
    fc.assert(
      fc.property(
        fc.array(fc.record({ add: fc.array(record, { maxLength: 4 }), cut: fc.nat({ max: 3 }) }), {
          maxLength: 20
        }),
        (steps) => {
          let path: TreeRecord[] = []
          for (const { add, cut } of steps) {
            // Mostly the branch goes on; now and then it is cut back (a rewind) first.
            if (cut === 0) path = path.slice(0, Math.floor(path.length / 2))
            path = [...path, ...chain(...add)]
            // Copies are records never counted: their count starts from scratch.
            const fresh = contextUsage(structuredClone(path), frame, 8_000)
            expect(contextUsage(path, frame, 8_000)).toEqual(fresh)
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})
