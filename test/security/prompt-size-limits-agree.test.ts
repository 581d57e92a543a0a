// Finding 6, "The web host dies": "the size limits of contract and socket agree (bytes, not
// characters)". And from its pointers: the session log's cut "must not silently cut a prompt the
// contract accepted: make the limits agree so an accepted prompt is stored whole".
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { SessionStore } from '../../src/core/session/store'
import { requests } from '../../src/shared/contract'
import { MAX_PROMPT_BYTES } from '../../src/shared/prompt-limit'
import { startWebHost, type WebHost } from '../../src/web/server'
import { recordingHandlers } from '../support/recording-handlers'

const accepts = (prompt: string) => requests['agent:send'].args.safeParse({ prompt }).success

/** Prompts around every size limit there is or was, in 1-, 2-, 3- and 4-byte characters. */
const sizes = [MAX_PROMPT_BYTES - 1, MAX_PROMPT_BYTES, MAX_PROMPT_BYTES + 1, 500_001, 1_000_000]
const characters = ['x', 'é', '漢', '😀']

let host: WebHost | null = null
afterEach(async () => {
  await host?.close()
  host = null
})

describe('the prompt size limit', () => {
  it('is in bytes of UTF-8: the same limit whatever the script', () => {
    for (const character of characters) {
      const bytes = Buffer.byteLength(character)
      const fits = character.repeat(Math.floor(MAX_PROMPT_BYTES / bytes))
      expect(accepts(fits), character).toBe(true)
      expect(accepts(`${fits}${character}`), character).toBe(false)
    }
  })

  it('keeps in the session log, whole, every prompt the contract accepts', () => {
    const store = SessionStore.create({ home: mkdtempSync(join(tmpdir(), 'rs-limit-')), cwd: '/w' })
    for (const character of characters) {
      for (const length of sizes) {
        const prompt = character.repeat(Math.ceil(length / character.length))
        if (!accepts(prompt)) continue
        const record = store.appendMessage({ role: 'user', content: prompt })
        expect(record.message.content === prompt, `${character} × ${length}`).toBe(true)
      }
    }
    const file = store.file
    store.close()
    const reread = SessionStore.open(file, { readOnly: true })
    const kept = reread.tree().checkpoints()
    expect(kept.length).toBeGreaterThan(0)
    for (const checkpoint of kept) expect(checkpoint.prompt).not.toContain('truncated')
    reread.close()
  })

  it('lets through the socket the largest prompt the contract accepts, however JSON escapes it', async () => {
    const staticDir = mkdtempSync(join(tmpdir(), 'rs-static-'))
    mkdirSync(staticDir, { recursive: true })
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html>')
    const { handlers, calls } = recordingHandlers()
    host = await startWebHost({ handlers, staticDir, log: () => {} })
    // A control character is one byte of UTF-8 and six in JSON (\u0001): the worst case.
    const prompt = '\u0001'.repeat(MAX_PROMPT_BYTES)
    expect(accepts(prompt)).toBe(true)
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
      origin: `http://127.0.0.1:${host.port}`
    })
    await new Promise((resolve, reject) => {
      socket.once('open', resolve)
      socket.once('error', reject)
    })
    const answered = new Promise<unknown>((resolve) => {
      socket.once('message', (data) => resolve(JSON.parse(data.toString())))
      socket.once('close', (code) => resolve({ closed: code }))
    })
    socket.send(JSON.stringify({ id: 1, channel: 'agent:send', args: { prompt } }))
    expect(await answered).toMatchObject({ id: 1 })
    expect(calls).toEqual([['agent:send', { prompt }]])
    socket.close()
  })
})
