// Context building: records of a branch → the Messages API's messages.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { TreeRecord } from '../session/tree'
import { INTERRUPTED_RESULT, MessageBuilder, buildMessages } from './context'

let n = 0
const base = () => ({ uuid: `u${++n}`, parentUuid: null, timestamp: '2026-01-01T00:00:00.000Z' })
const user = (content: string | object[]): TreeRecord =>
  ({ type: 'user', ...base(), message: { role: 'user', content } }) as TreeRecord
const assistant = (content: object[]): TreeRecord =>
  ({ type: 'assistant', ...base(), message: { role: 'assistant', content } }) as TreeRecord
const use = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: {} })
const result = (id: string, content = 'ok') => ({ type: 'tool_result', tool_use_id: id, content })

describe('buildMessages', () => {
  test('an unanswered tool call (killed process, cut branch) gets an interrupted result', () => {
    expect(buildMessages([user('go'), assistant([use('a'), use('b')])])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [use('a'), use('b')] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: INTERRUPTED_RESULT, is_error: true },
          { type: 'tool_result', tool_use_id: 'b', content: INTERRUPTED_RESULT, is_error: true }
        ]
      }
    ])
  })

  test('a partly answered call: the missing result is added first, next to the recorded one', () => {
    const out = buildMessages([
      user('go'),
      assistant([use('a'), use('b')]),
      user([result('b')]),
      user('next')
    ])
    expect(out[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: INTERRUPTED_RESULT, is_error: true },
      result('b'),
      { type: 'text', text: 'next' }
    ])
  })

  test('an orphan result (its call is on another branch) is dropped', () => {
    expect(buildMessages([user([result('zz')]), user('hi')])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] }
    ])
  })

  test('branch summaries and notes become user text; consecutive users merge; empty text is dropped', () => {
    const records = [
      user('first'),
      assistant([
        { type: 'text', text: '' },
        { type: 'text', text: 'answer' }
      ]),
      { type: 'branch_summary', ...base(), fromId: 'u1', summary: 'found X' },
      {
        type: 'custom_message',
        ...base(),
        customType: 'rewind-report',
        hidden: true,
        content: 'the report'
      }
    ] as TreeRecord[]
    const out = buildMessages(records)
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(out[1]?.content).toEqual([{ type: 'text', text: 'answer' }])
    const last = JSON.stringify(out[2]?.content)
    expect(last).toContain('<summary>\\nfound X\\n</summary>')
    expect(last).toContain('<system-reminder>\\nthe report\\n</system-reminder>')
  })

  test('the same branch gives the same bytes', () => {
    const records = [user('a'), assistant([use('x')]), user([result('x')])]
    expect(JSON.stringify(buildMessages(records))).toBe(JSON.stringify(buildMessages(records)))
  })
})

describe('MessageBuilder', () => {
  /** One record of a random branch; tool ids are few, so results match calls, or orphan ones. */
  const record = fc.oneof(
    fc.constantFrom('go', '').map((text) => user(text)),
    fc
      .array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 2 })
      .map((ids) => user(ids.map((id) => result(id)))),
    fc.constantFrom('answer', '').map((text) => assistant([{ type: 'text', text }])),
    fc
      .array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 2 })
      .map((ids) => assistant([...new Set(ids)].map(use))),
    fc.constantFrom('note', '').map(
      (content) =>
        ({
          type: 'custom_message',
          ...base(),
          customType: 'n',
          hidden: true,
          content
        }) as TreeRecord
    ),
    fc.constant(null).map(() => {
      return {
        type: 'compaction',
        ...base(),
        summary: 'earlier',
        firstKeptUuid: null,
        tokensBefore: 10,
        trigger: 'manual'
      } as TreeRecord
    })
  )

  test('gives what buildMessages gives, request after request, also after a cut or a compaction', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ add: fc.array(record, { maxLength: 4 }), cut: fc.nat({ max: 3 }) }), {
          maxLength: 25
        }),
        (steps) => {
          const builder = new MessageBuilder()
          let path: TreeRecord[] = []
          for (const { add, cut } of steps) {
            // Mostly the branch goes on; now and then it is cut back (a rewind) first.
            if (cut === 0) path = path.slice(0, Math.floor(path.length / 2))
            path = [...path, ...add]
            expect(builder.build(path)).toEqual(buildMessages(path))
          }
        }
      ),
      { numRuns: 500 }
    )
  })

  test('repeats the messages it kept, and builds only what was added', () => {
    const builder = new MessageBuilder()
    const prompt = user('go')
    const first = builder.build([prompt])
    const call = assistant([use('a')])
    const answer = user([result('a')])
    const second = builder.build([prompt, call, answer])
    expect(second[0]).toBe(first[0])
    expect(second).toEqual(buildMessages([prompt, call, answer]))
  })
})
