// The page acts on a failure's contract code: what the user can act on is a warning, a stop the
// user asked for is news, and only an internal failure (or one that never crossed the contract)
// is shown as an error.
import { beforeEach, describe, expect, it } from 'vitest'
import { BridgeError, ConnectionClosedError } from '../bridge/bridge-error'
import { useAppStore } from '../stores/app-store'
import { reportFailure } from './report'

const initial = useAppStore.getState()
const shown = () => useAppStore.getState().notices.map((n) => [n.level, n.message])

describe('reportFailure', () => {
  beforeEach(() => useAppStore.setState(initial, true))

  it('shows an expected failure as a warning, in the main process words', () => {
    reportFailure('Open', new BridgeError({ code: 'refused', message: 'Too many records' }))
    reportFailure('Send', new BridgeError({ code: 'busy', message: 'The agent is running' }))
    expect(shown()).toEqual([
      ['warning', 'Open: Too many records'],
      ['warning', 'Send: The agent is running']
    ])
  })

  it('shows a stop as news and an internal failure or a plain error as an error', () => {
    reportFailure('Summary', new BridgeError({ code: 'stopped', message: 'Stopped.' }))
    reportFailure('Open', new BridgeError({ code: 'internal', message: 'x is undefined' }))
    reportFailure('Open', new Error('socket closed'))
    expect(shown()).toEqual([
      ['info', 'Summary: Stopped.'],
      ['error', 'Open: x is undefined'],
      ['error', 'Open: socket closed']
    ])
  })

  it('shows a closed connection once, however many requests met it', () => {
    useAppStore.getState().notify('error', new ConnectionClosedError().message)
    reportFailure('Loading the sessions', new ConnectionClosedError())
    reportFailure('Send', new ConnectionClosedError())
    expect(shown()).toEqual([
      ['error', 'The connection to Rewind Studio closed. Reload the page to reconnect.']
    ])
  })
})
