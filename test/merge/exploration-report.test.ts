// The conclusions an agent's exploration left: bringing in a node of the exploration (or its
// report) takes the report the agent wrote when it rewound, with no model call.
import { describe, expect, it } from 'vitest'
import { REWIND_REPORT_TYPE } from '../../src/core/session/tree'
import { conversationToBring, retainedReport } from '../../src/core/merge/conversation'
import { ModelCallError, type ModelClient } from '../../src/core/agent/model/model-client'
import { sessionsClosedAfterEach } from '../rewind/fixture'

const { session } = sessionsClosedAfterEach()

/** A model that fails any call: a report must not need one. */
const noModel: ModelClient = {
  complete: () => Promise.reject(new ModelCallError('api', 'no model call expected'))
} as unknown as ModelClient

describe('an exploration’s retained report', () => {
  it('is what a merge from the exploration brings in', async () => {
    const s = await session()
    const { store } = s
    const before = s.prompt('look into the cache')
    store.appendMessage({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'cp1', name: 'checkpoint', input: { goal: 'cache' } }]
    })
    const startedAt = new Date().toISOString()
    const entry = store.appendMessage(
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'cp1', content: 'ok' }] },
      { toolDetails: { cp1: { goal: 'cache', startedAt } } }
    )
    const explored = s.reply('the cache is keyed by path only')
    const report = 'The cache ignores mtime: key it by path and mtime.'
    store.appendBranchSummary({ fromId: entry.uuid, summary: report, details: { startedAt } })
    const reportNode = store.appendCustomMessage({
      customType: REWIND_REPORT_TYPE,
      hidden: true,
      content: report,
      details: { report, startedAt, rewoundAt: new Date().toISOString() }
    })
    // The user goes back before the prompt and works on something else.
    await s.engine.rewind(before, 'conversation')
    s.prompt('something else')
    s.reply('done')
    const tree = store.tree()
    expect(retainedReport(tree, explored)).toBe(report)
    expect(retainedReport(tree, reportNode.uuid)).toBe(report)
    expect(retainedReport(tree, store.leafUuid as string)).toBeNull()
    const brought = await conversationToBring(
      { tree, model: noModel, cwd: s.cwd, window: 100_000, signal: new AbortController().signal },
      explored,
      store.leafUuid
    )
    expect(brought).toEqual({ summary: report, source: 'report' })
  })
})
