// Finding 8 (first half): "The agent can freeze the app. Grep with `(a+)+$` runs on the main
// thread with no prompt: the server answered nothing for 110 s, and neither Stop nor SIGTERM
// worked. Run search in a worker (or a linear-time engine) with a time limit and abort."
//
// The real `serve` host, a scripted model that greps `(a+)+$` over a line that makes it
// backtrack for ever: the server keeps answering while the Grep runs, Stop ends it, and SIGTERM
// during another one ends the process and frees the session's writer lock.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type ServedApp, serve } from '../../e2e/support/serve'
import { lockPath } from '../../src/core/session/lock'
import { connectStudio } from '../support/ws-client'

function grepScript(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-script-')), 'script.json')
  const grep = { type: 'tool_use', name: 'Grep', input: { pattern: '(a+)+$' } }
  writeFileSync(
    file,
    JSON.stringify({
      rules: [{ match: 'search', responses: [[grep], [{ type: 'text', text: 'searched' }]] }]
    })
  )
  return `scripted:${file}`
}

const isEvent =
  (type: string, extra: (payload: Record<string, unknown>) => boolean = () => true) =>
  (event: string, payload: unknown) =>
    event === 'agent:event' &&
    (payload as { type: string }).type === type &&
    extra(payload as Record<string, unknown>)

let app: ServedApp | null = null
afterEach(async () => {
  await app?.stop()
  app = null
})

describe('Grep on a pattern that backtracks for ever, in the served app', () => {
  it('leaves the server answering; Stop ends the Grep; SIGTERM during one frees the lock', async () => {
    app = await serve({
      files: { 'slow.txt': `${'a'.repeat(40)}b\n` },
      args: ['--model', grepScript(), '--permission-mode', 'bypassPermissions']
    })
    const studio = await connectStudio(app.url)

    expect((await studio.ask('agent:send', { prompt: 'search the files' })).ok).toBe(true)
    await studio.waitForEvent(isEvent('tool_start', (p) => p.name === 'Grep'))
    // The Grep is stuck on slow.txt; the server still answers.
    const info = (await studio.ask('app:info')) as {
      value: { running: boolean; sessionFile: string }
    }
    expect(info.value.running).toBe(true)

    expect((await studio.ask('agent:stop')).ok).toBe(true)
    expect(await studio.waitForEvent(isEvent('tool_end'))).toMatchObject({
      isError: true,
      text: 'Grep was cancelled.'
    })

    const before = studio.eventCount()
    expect((await studio.ask('agent:send', { prompt: 'search again' })).ok).toBe(true)
    await studio.waitForEvent(
      isEvent('tool_start', (p) => p.name === 'Grep'),
      before
    )
    const lock = lockPath(info.value.sessionFile)
    expect(existsSync(lock)).toBe(true)
    studio.close()
    await app.stop()
    app = null
    expect(existsSync(lock)).toBe(false)
  })
})
