// Record builders for tree tests: records as they appear in a session file, with short ids.
import { SESSION_FORMAT_VERSION } from '../../src/core/session/records'

const at = '2026-01-01T00:00:00.000Z'

export const header = (sessionId = 's1') => ({
  type: 'session',
  uuid: sessionId,
  parentUuid: null,
  timestamp: at,
  version: SESSION_FORMAT_VERSION,
  sessionId,
  cwd: '/work'
})

export const user = (
  uuid: string,
  parentUuid: string | null,
  content: unknown = `prompt ${uuid}`
) => ({
  type: 'user',
  uuid,
  parentUuid,
  timestamp: at,
  message: { role: 'user', content }
})

export const toolResult = (uuid: string, parentUuid: string | null) =>
  user(uuid, parentUuid, [{ type: 'tool_result', tool_use_id: `t-${uuid}`, content: 'ok' }])

export const assistant = (uuid: string, parentUuid: string | null, text = `answer ${uuid}`) => ({
  type: 'assistant',
  uuid,
  parentUuid,
  timestamp: at,
  message: { role: 'assistant', content: [{ type: 'text', text }] }
})

export const rewind = (
  uuid: string,
  parentUuid: string | null,
  leafUuid: string | null,
  checkpointUuid: string
) => ({
  type: 'rewind',
  uuid,
  parentUuid,
  timestamp: at,
  leafUuid,
  checkpointUuid,
  mode: 'both'
})

export const navigate = (uuid: string, parentUuid: string | null, leafUuid: string | null) => ({
  type: 'navigate',
  uuid,
  parentUuid,
  timestamp: at,
  leafUuid,
  reason: 'switch-branch'
})

export const fileChange = (uuid: string, checkpointUuid: string, path: string) => ({
  type: 'file_change',
  uuid,
  parentUuid: null,
  timestamp: at,
  checkpointUuid,
  path,
  before: null,
  after: 'abc',
  source: 'Write'
})

export const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n'
