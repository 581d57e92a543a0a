// Read-before-edit across a move of the conversation, through the real SDK against the loopback
// Messages server over a real workspace session: after a rewind (or in a resumed session) the
// model may edit a file the kept turns wrote without reading it again, as long as the disk still
// holds what it wrote; a file it only read, or one changed since, still needs a new Read.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  MODIFIED_SINCE_READ_MESSAGE,
  NOT_READ_MESSAGE
} from '../../src/core/agent/tools/guarded-write'
import { SessionStore } from '../../src/core/session/store'
import { seedWorkspace } from '../support/cli'
import {
  closeLoopbackSession,
  closeLoopback,
  openLoopbackSession,
  startLoopbackServer
} from '../support/loopback-workspace'
import {
  type RecordedRequest,
  type ServerStep,
  textReply as text,
  toolReply as tool
} from '../support/messages-server'

afterEach(closeLoopback)

const removeDebug = (id: string) =>
  tool(id, 'Edit', { file_path: 'config.py', old_string: 'DEBUG = True\n', new_string: '' })

/** Turn 1 reads config.py and notes.md and adds TIMEOUT; turn 2 removes DEBUG. */
const twoTurns: ServerStep[] = [
  tool('tu_1', 'Read', { file_path: 'config.py' }),
  tool('tu_2', 'Read', { file_path: 'notes.md' }),
  tool('tu_3', 'Edit', {
    file_path: 'config.py',
    old_string: 'HOST',
    new_string: 'TIMEOUT = 30\nHOST'
  }),
  text('Added TIMEOUT.'),
  removeDebug('tu_4'),
  text('Removed DEBUG.')
]

/** Two turns, then a rewind of code and conversation to before the second. */
async function rewoundAfterTwoTurns(next: ServerStep[]) {
  const server = await startLoopbackServer([...twoTurns, ...next])
  const { workspace, home } = seedWorkspace()
  writeFileSync(join(workspace, 'notes.md'), '# Notes\n')
  const store = SessionStore.create({ home, cwd: workspace })
  const work = await openLoopbackSession(home, store, server.url)
  await work.agent.send('add TIMEOUT')
  await work.agent.send('remove DEBUG')
  const second = store.tree().checkpoints()[1]?.uuid as string
  await work.rewind(second, 'both')
  return { work, store, home, workspace, url: server.url, requests: server.requests }
}

/** The tool_result the model was sent in the request after the last one of the turn before. */
function lastToolResult(requests: RecordedRequest[]): string {
  const last = requests.at(-1)?.body.messages.at(-1) as { content: unknown }
  return JSON.stringify(last.content)
}

const config = (workspace: string) => readFileSync(join(workspace, 'config.py'), 'utf8')

describe('read-before-edit after the conversation moved', () => {
  it('after a rewind, a file the kept turn wrote is edited without a new Read', async () => {
    const { work, workspace, requests } = await rewoundAfterTwoTurns([
      removeDebug('tu_5'),
      text('Removed DEBUG again.')
    ])
    expect(config(workspace)).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    await work.agent.send('remove DEBUG after all')
    expect(lastToolResult(requests)).not.toContain(NOT_READ_MESSAGE)
    expect(config(workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
  })

  it('a file changed on disk since the model wrote it is refused, as before the rewind', async () => {
    const { work, workspace, requests } = await rewoundAfterTwoTurns([
      removeDebug('tu_5'),
      text('It changed.')
    ])
    writeFileSync(join(workspace, 'config.py'), 'DEBUG = True\nTIMEOUT = 60\nHOST = "localhost"\n')
    await work.agent.send('remove DEBUG after all')
    expect(lastToolResult(requests)).toContain(MODIFIED_SINCE_READ_MESSAGE)
    expect(config(workspace)).toBe('DEBUG = True\nTIMEOUT = 60\nHOST = "localhost"\n')
  })

  it('a file the model only read needs a new Read: the log keeps no content of a read', async () => {
    const { work, workspace, requests } = await rewoundAfterTwoTurns([
      tool('tu_5', 'Edit', { file_path: 'notes.md', old_string: '# Notes', new_string: '# N' }),
      text('Not read.')
    ])
    await work.agent.send('retitle the notes')
    expect(lastToolResult(requests)).toContain(NOT_READ_MESSAGE)
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# Notes\n')
  })

  it('a resumed session trusts what its branch wrote, not what another branch did', async () => {
    const { work, store, home, workspace, url, requests } = await rewoundAfterTwoTurns([
      removeDebug('tu_5'),
      text('Removed DEBUG in the resumed session.')
    ])
    const file = store.file
    await closeLoopbackSession(work)
    const resumed = await openLoopbackSession(home, SessionStore.open(file), url)
    await resumed.agent.send('remove DEBUG after all')
    expect(lastToolResult(requests)).not.toContain(NOT_READ_MESSAGE)
    expect(config(workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
  })
})
