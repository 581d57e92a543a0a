// Finding 9: "Unknown checkpoint, nothing to undo, unknown leaf come back as `internal` with a
// stack trace: `not_found`."
// Over the contract, as both transports call it: the real studio on a temp workspace. Each is an
// expected answer, so neither the reply nor the host's log carries a stack trace.
import { afterEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import { launchScriptedStudio } from '../support/scripted-studio'
import type { Studio } from '../../src/core/studio/studio'
import type { Reply } from '../../src/shared/contract'
import { seedWorkspace } from '../support/cli'

const open: Studio[] = []
afterEach(async () => {
  for (const studio of open.splice(0)) await studio.close()
})

async function contract() {
  const { workspace, home } = seedWorkspace()
  const studio = await launchScriptedStudio({
    home,
    cwd: workspace,
    session: { kind: 'new' }
  })
  open.push(studio)
  const handlers = createHandlers(studio)
  const logged: string[] = []
  const call = (channel: string, args: unknown): Promise<Reply> =>
    dispatch(handlers, channel, args, (line) => logged.push(line))
  return { call, logged }
}

const unknownId = '0190aaaa-bbbb-7ccc-8ddd-eeeeffff0000'

describe('asking for what is not there', () => {
  const cases: [string, string, unknown, RegExp][] = [
    [
      'an unknown checkpoint to preview',
      'rewind:preview',
      { checkpointUuid: unknownId, mode: 'both' },
      /is not a checkpoint/
    ],
    [
      'an unknown checkpoint to rewind to',
      'rewind:apply',
      { checkpointUuid: unknownId, mode: 'code' },
      /is not a checkpoint/
    ],
    ['an undo with nothing to undo', 'rewind:undo', {}, /^Nothing to undo/],
    ['an unknown leaf to preview', 'branch:preview', { leafUuid: unknownId }, /not found/],
    ['an unknown leaf to switch to', 'branch:switch', { leafUuid: unknownId }, /not found/]
  ]
  for (const [what, channel, args, message] of cases) {
    it(`${what} (${channel}) is not_found, with no stack trace in the reply or the log`, async () => {
      const { call, logged } = await contract()
      const reply = await call(channel, args)
      expect(reply).toMatchObject({ ok: false, error: { code: 'not_found' } })
      const text = reply.ok ? '' : reply.error.message
      expect(text).toMatch(message)
      expect(text).not.toMatch(/\n\s+at /)
      expect(logged.join('\n')).not.toMatch(/\n\s+at /)
    })
  }
})
