// Finding 9: "`settings:set` with `scripted:/etc/shadow` echoes the first characters of any
// readable file: no file content in errors."
// Over the contract with the real studio: files that are not scripts, holding a secret, are named
// in the refusal and none of their content is quoted; settings stay as they were.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
  return (channel: string, args: unknown): Promise<Reply> =>
    dispatch(handlers, channel, args, () => undefined)
}

const SECRET = 'Sup3rS3cretHash'

function fileHolding(name: string, content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-secret-')), name)
  writeFileSync(file, content, { mode: 0o600 })
  return file
}

const notScripts: [string, string, RegExp][] = [
  [
    'a shadow file',
    `root:$y$j9T$${SECRET}:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n`,
    /^Not a scripted model file: .* \(line 1 is not valid JSON\)$/
  ],
  [
    'JSON with the secret on its third line',
    `{\n  "rules": [],\n  "token": ${SECRET}\n}\n`,
    /^Not a scripted model file: .* \(line 3 is not valid JSON\)$/
  ],
  [
    'a JSON credentials file',
    JSON.stringify({ aws_secret_access_key: SECRET }, null, 2),
    /^Not a scripted model file: .* \(no "rules" list at the top level\)$/
  ],
  [
    'a script-like file with an extra key',
    JSON.stringify({ rules: [], [SECRET]: true }),
    /^Scripted model file .* is invalid at \(root\): 1 unknown key$/
  ]
]

describe('settings:set with a model file that is not a script', () => {
  for (const [what, content, why] of notScripts) {
    it(`${what}: refused, naming the file, quoting none of it`, async () => {
      const call = await contract()
      const before = await call('settings:get', {})
      const file = fileHolding('secret.txt', content)
      const reply = await call('settings:set', { model: `scripted:${file}` })
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_payload' } })
      const message = reply.ok ? '' : reply.error.message
      expect(message).toContain(file)
      expect(message).toMatch(why)
      expect(message).not.toContain(SECRET)
      expect(message).not.toMatch(/root:|daemon|aws_secret/)
      expect(await call('settings:get', {})).toEqual(before)
    })
  }

  it('a named pipe: refused without waiting for a writer', async () => {
    const call = await contract()
    const dir = mkdtempSync(join(tmpdir(), 'rs-fifo-'))
    const fifo = join(dir, 'pipe')
    execFileSync('mkfifo', [fifo])
    const reply = await call('settings:set', { model: `scripted:${fifo}` })
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_payload' } })
    expect(reply.ok ? '' : reply.error.message).toContain(
      `Not a scripted model file: ${fifo} (not a regular file)`
    )
  })
})
