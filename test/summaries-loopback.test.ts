// Summaries the user asks for, through the real SDK against the loopback Messages server, over a
// real workspace session (file history, rewind engine, agent): a branch left by a rewind, from
// here, up to here. Each records what the model was asked and what the next request repeats.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SessionStore } from '../src/core/session/store'
import type { TreeRecord } from '../src/core/session/tree'
import { SUMMARY_SYSTEM } from '../src/core/agent/summary/summary-request'
import { seedWorkspace } from './support/cli'
import {
  closeLoopback,
  openLoopbackSession,
  startLoopbackServer
} from './support/loopback-workspace'
import {
  type RecordedRequest,
  type ServerStep,
  textReply as text,
  toolReply as tool
} from './support/messages-server'

afterEach(closeLoopback)

/** Turn 1 reads config.py, turn 2 edits it: the steps the server answers them with. */
const twoTurns: ServerStep[] = [
  tool('tu_1', 'Read', { file_path: 'config.py' }),
  text('It has DEBUG and HOST.'),
  tool('tu_2', 'Edit', {
    file_path: 'config.py',
    old_string: 'DEBUG = True\n',
    new_string: ''
  }),
  text('Removed DEBUG.')
]

async function open(steps: ServerStep[]) {
  const server = await startLoopbackServer(steps)
  const { workspace, home } = seedWorkspace()
  const store = SessionStore.create({ home, cwd: workspace })
  const work = await openLoopbackSession(home, store, server.url)
  await work.agent.send('what is in config.py?')
  await work.agent.send('remove DEBUG')
  return { work, store, workspace, requests: server.requests }
}

const isSummary = (r: RecordedRequest) => JSON.stringify(r.body.system).includes(SUMMARY_SYSTEM)

/** The request's raw bytes up to where its last message begins. */
function prefixBeforeLastMessage(request: RecordedRequest): string {
  const last = request.body.messages.at(-1)
  const at = request.raw.lastIndexOf(JSON.stringify(last).slice(0, -1))
  expect(at).toBeGreaterThan(0)
  return request.raw.slice(0, at)
}

const config = (workspace: string) => readFileSync(join(workspace, 'config.py'), 'utf8')

describe('summaries through the real SDK', () => {
  it('a rewind that leaves a branch summarizes it first and puts the summary on the new position', async () => {
    const { work, store, workspace, requests } = await open([
      ...twoTurns,
      text('## Goal\nDrop DEBUG.\n## Progress\n### Done\nDEBUG removed from config.py.'),
      text('Kept DEBUG.')
    ])
    const oldLeaf = store.leafUuid
    const second = store.tree().checkpoints()[1]?.uuid as string
    const result = await work.rewind(second, 'both', {
      mode: 'summarize',
      instructions: 'say which lines changed'
    })
    expect(config(workspace)).toBe('DEBUG = True\nHOST = "localhost"\n')

    // The summary request: the abandoned part (prompt 2 on), the structure, the instructions.
    const summaryRequest = requests[4] as RecordedRequest
    expect(isSummary(summaryRequest)).toBe(true)
    const asked = JSON.stringify(summaryRequest.body.messages)
    expect(asked).toContain('remove DEBUG')
    expect(asked).not.toContain('what is in config.py?')
    expect(asked).toContain('say which lines changed')
    expect(asked).toContain('## Next steps')
    expect(summaryRequest.body.tools).toBeUndefined()

    // Appended on the new position, linked to the branch it summarizes, with its files.
    const summary = store.tree().get(result.summaryUuid as string) as TreeRecord
    expect(summary).toMatchObject({
      type: 'branch_summary',
      parentUuid: store.tree().get(second)?.parentUuid,
      details: {
        fromLeafUuid: oldLeaf,
        modifiedFiles: ['config.py'],
        readFiles: [],
        instructions: 'say which lines changed'
      }
    })
    expect(store.leafUuid).toBe(summary.uuid)
    expect(summary.type === 'branch_summary' && summary.summary).toContain(
      'DEBUG removed from config.py.\n\n## Files\nModified: config.py'
    )

    // The next request repeats the first turn byte for byte, then the summary and the prompt.
    await work.agent.send('keep DEBUG, just look')
    const before = requests[2] as RecordedRequest // turn 2's first request
    const after = requests[5] as RecordedRequest
    expect(prefixBeforeLastMessage(after)).toBe(prefixBeforeLastMessage(before))
    const last = JSON.stringify(after.body.messages.at(-1))
    expect(last).toContain('Summary of that branch')
    expect(last).toContain('DEBUG removed from config.py.')
    expect(last).toContain('keep DEBUG, just look')
  })

  it('a stopped summary changes nothing: no move, no record, files as they were', async () => {
    const { work, store, workspace, requests } = await open([
      ...twoTurns,
      { kind: 'stall', content: [{ type: 'text', text: 'A summary that never ends' }] }
    ])
    const leaf = store.leafUuid
    const records = store.tree().records.length
    const second = store.tree().checkpoints()[1]?.uuid as string
    const rewinding = work.rewind(second, 'both', { mode: 'summarize' }).catch((e: unknown) => e)
    await expect.poll(() => requests.length).toBe(5)
    expect(work.agent.running).toBe(true)
    await work.agent.stop()
    expect(await rewinding).toMatchObject({
      code: 'stopped',
      message: 'Stopped: no summary was made and nothing was changed.'
    })
    expect(store.leafUuid).toBe(leaf)
    expect(store.tree().records).toHaveLength(records)
    expect(config(workspace)).toBe('HOST = "localhost"\n')
  })

  it('a failed summary says why and changes nothing', async () => {
    const { work, store } = await open([
      ...twoTurns,
      { kind: 'error', status: 401, errorType: 'authentication_error', message: 'bad key' }
    ])
    const leaf = store.leafUuid
    const second = store.tree().checkpoints()[1]?.uuid as string
    await expect(work.rewind(second, 'conversation', { mode: 'summarize' })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(
        /^The summary failed: The API refused the key \(401\).*Nothing was changed\.$/
      )
    })
    expect(store.leafUuid).toBe(leaf)
  })

  it('a summary is refused while a turn streams', async () => {
    const { work } = await open([
      ...twoTurns,
      { kind: 'stall', content: [{ type: 'text', text: 'a turn that never ends' }] }
    ])
    const turn = work.agent.send('and now?')
    await expect.poll(() => work.agent.running).toBe(true)
    const first = work.store.tree().checkpoints()[0]?.uuid as string
    await expect(work.summarizeUpToHere(first)).rejects.toThrow('already running a turn')
    await work.agent.stop()
    expect((await turn).status).toBe('stopped')
  })

  it('from here: the prompt and what follows become one summary on its parent; the prompt comes back', async () => {
    const { work, store, workspace, requests } = await open([
      ...twoTurns,
      text('DEBUG was removed.'),
      text('OK.')
    ])
    const second = store.tree().checkpoints()[1]?.uuid as string
    const parent = store.tree().get(second)?.parentUuid
    const { summaryUuid, prefill } = await work.summarizeFromHere(second)
    expect(prefill).toBe('remove DEBUG')
    expect(store.tree().get(summaryUuid)).toMatchObject({
      type: 'branch_summary',
      parentUuid: parent
    })
    expect(store.leafUuid).toBe(summaryUuid)
    expect(config(workspace)).toBe('HOST = "localhost"\n') // no file changes
    await work.agent.send('remove HOST too')
    const before = requests[2] as RecordedRequest
    const after = requests.at(-1) as RecordedRequest
    expect(prefixBeforeLastMessage(after)).toBe(prefixBeforeLastMessage(before))
    expect(JSON.stringify(after.body.messages.at(-1))).toContain('DEBUG was removed.')
  })

  it('up to here: what comes before the prompt becomes one summary; the later turns stay verbatim', async () => {
    const { work, store, requests } = await open([
      ...twoTurns,
      text('Turn 1 read config.py: DEBUG and HOST.'),
      text('OK.')
    ])
    const second = store.tree().checkpoints()[1]?.uuid as string
    const { summaryUuid } = await work.summarizeUpToHere(second, 'keep it short')
    expect(store.tree().get(summaryUuid)).toMatchObject({
      type: 'compaction',
      firstKeptUuid: second,
      trigger: 'manual',
      details: { readFiles: ['config.py'], modifiedFiles: [], instructions: 'keep it short' }
    })
    const asked = JSON.stringify((requests[4] as RecordedRequest).body.messages)
    expect(asked).toContain('what is in config.py?')
    expect(asked).not.toContain('remove DEBUG')
    await work.agent.send('thanks')
    const before = requests[3] as RecordedRequest // turn 2's last request
    const after = requests.at(-1) as RecordedRequest
    const plain = (m: unknown) =>
      JSON.stringify(m, (key, v: unknown) => (key === 'cache_control' ? undefined : v))
    expect(after.raw.slice(0, after.raw.indexOf('"messages"'))).toBe(
      before.raw.slice(0, before.raw.indexOf('"messages"'))
    )
    expect(JSON.stringify(after.body.messages[0])).toContain('Turn 1 read config.py')
    expect(JSON.stringify(after.body.messages)).not.toContain('what is in config.py?')
    // Turn 2 from its prompt on, as sent before: the prompt after the summary, then its steps.
    expect(plain(after.body.messages[0])).toContain(
      `${plain(before.body.messages[4]).slice(29, -2)}]}`
    )
    expect(after.body.messages.slice(1, 3).map(plain)).toEqual(
      before.body.messages.slice(5).map(plain)
    )
  })
})
