// Contract handlers for transport tests: each call is recorded, app:info answers a fixed value,
// and every other channel says it is not part of the test. The transports must not care which.
import type { Handlers, RequestChannel } from '../../src/shared/contract'
import { requestChannels } from '../../src/shared/contract'
import type { AppInfo } from '../../src/shared/views'

export const fixedInfo: AppInfo = {
  version: '0.0.0-test',
  workspace: '/tmp/ws',
  sessionId: 'session-1',
  sessionFile: '/tmp/s.jsonl',
  readOnlyReason: null,
  demo: true,
  model: 'scripted:test',
  notices: [],
  running: false,
  pendingPermissions: [],
  contextUsage: { tokens: 0, window: 200_000, estimated: true },
  foreign: null
}

export function recordingHandlers(): { handlers: Handlers; calls: [RequestChannel, unknown][] } {
  const calls: [RequestChannel, unknown][] = []
  const handlers = Object.fromEntries(
    requestChannels.map((channel) => [
      channel,
      async (args: unknown) => {
        calls.push([channel, args])
        if (channel === 'app:info') return fixedInfo
        throw new Error(`${channel} is not part of this test`)
      }
    ])
  ) as unknown as Handlers
  return { handlers, calls }
}
