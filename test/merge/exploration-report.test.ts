// The conclusions an agent's exploration left: bringing in a node of the exploration (or its
// report) takes the report the agent wrote when it rewound, with no model call.
import { describe, expect, it } from 'vitest'
import { REWIND_REPORT_TYPE } from '../../src/core/session/tree'
import {
  conclusionsHere,
  conversationToBring,
  retainedReport
} from '../../src/core/merge/conversation'
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
    const { before, explored, report, reportNode } = explore(s)
    // The user goes back before the prompt and works on something else.
    await s.engine.rewind(before, 'conversation')
    s.prompt('something else')
    s.reply('done')
    const tree = store.tree()
    expect(retainedReport(tree, explored)).toEqual({ uuid: reportNode.uuid, report })
    expect(retainedReport(tree, reportNode.uuid)).toEqual({ uuid: reportNode.uuid, report })
    expect(retainedReport(tree, store.leafUuid as string)).toBeNull()
    const found = retainedReport(tree, explored)
    expect(conclusionsHere(tree, explored, store.leafUuid, found)).toBe(false)
    const brought = await conversationToBring(
      { tree, model: noModel, cwd: s.cwd, window: 100_000, signal: new AbortController().signal },
      explored,
      store.leafUuid
    )
    expect(brought).toEqual({ summary: report, source: 'report' })
  })

  it('is not brought in again to the branch that holds it (where the agent rewound to)', async () => {
    const s = await session()
    const { store } = s
    const { explored } = explore(s)
    // The report is on the conversation's branch: the model reads it here already.
    s.prompt('go on')
    const tree = store.tree()
    expect(conclusionsHere(tree, explored, store.leafUuid, retainedReport(tree, explored))).toBe(
      true
    )
    await expect(
      conversationToBring(
        { tree, model: noModel, cwd: s.cwd, window: 100_000, signal: new AbortController().signal },
        explored,
        store.leafUuid
      )
    ).rejects.toMatchObject({ code: 'conflict', message: /holds that node’s conclusions already/ })
  })
})

/** An agent's exploration: a checkpoint, a finding, the report its rewind leaves at the leaf. */
function explore(s: Awaited<ReturnType<typeof session>>) {
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
  return { before, explored, report, reportNode }
}
