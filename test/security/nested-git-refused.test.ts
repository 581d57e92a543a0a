// Finding 2 of the hardening review: "A nested `.git` is writable. Only the top-level `.git` is
// refused, case-sensitively. In acceptEdits the agent wrote `vendor/lib/.git/config` with
// `core.fsmonitor`, and the next `git status` ran a command. A restore can write `.git/hooks/*`
// of a nested repo too. Refuse `.git` as any path component, any case, in every tool and every
// restore path."
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { fileChangeRecords } from '../../src/core/rewind/other-sessions'
import { RewindError } from '../../src/core/rewind/rewind-engine'
import { apiModel, makeHarness } from '../support/agent-harness'
import {
  type MessagesServer,
  type ServerStep,
  startMessagesServer
} from '../support/messages-server'
import { sessionsClosedAfterEach } from '../rewind/fixture'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

const { session } = sessionsClosedAfterEach()

const toolUse = (id: string, name: string, input: object): ServerStep => ({
  kind: 'message',
  content: [{ type: 'tool_use', id, name, input }]
})
const done: ServerStep = { kind: 'message', content: [{ type: 'text', text: 'Done.' }] }

/** The tool results the model got back, by tool_use id. */
function results(s: MessagesServer): Map<string, { content: string; isError: boolean }> {
  const found = new Map<string, { content: string; isError: boolean }>()
  for (const request of s.requests) {
    for (const message of request.body.messages) {
      if (!Array.isArray(message.content)) continue
      for (const block of message.content as Record<string, unknown>[]) {
        if (block.type !== 'tool_result') continue
        found.set(String(block.tool_use_id), {
          content: JSON.stringify(block.content),
          isError: block.is_error === true
        })
      }
    }
  }
  return found
}

describe('the agent in acceptEdits cannot reach into a nested repository’s .git', () => {
  test('Read, Write and Edit of vendor/lib/.git are refused, and git status runs nothing', async () => {
    const marker = 'fsmonitor-ran'
    server = await startMessagesServer()
    const h = makeHarness({ model: apiModel(server.url), permissionMode: 'acceptEdits' })
    execFileSync('git', ['init', '-q', join(h.ws.root, 'vendor/lib')])
    const config = join(h.ws.root, 'vendor/lib/.git/config')
    const configBefore = readFileSync(config, 'utf8')
    const poisoned = `${configBefore}[core]\n\tfsmonitor = "echo ran > ${join(h.ws.root, marker)}; false"\n`
    server.push(
      toolUse('tu_read', 'Read', { file_path: 'vendor/lib/.git/config' }),
      toolUse('tu_write', 'Write', { file_path: 'vendor/lib/.git/config', content: poisoned }),
      toolUse('tu_edit', 'Edit', {
        file_path: 'vendor/lib/.git/hooks/pre-commit',
        old_string: '',
        new_string: '#!/bin/sh\necho ran > /tmp/never\n'
      }),
      toolUse('tu_upper', 'Write', { file_path: 'vendor/lib/.GIT/config', content: poisoned }),
      done
    )

    await h.agent.send('speed up git status in vendor/lib')

    const got = results(server)
    for (const id of ['tu_read', 'tu_write', 'tu_edit', 'tu_upper']) {
      expect(got.get(id)?.isError, id).toBe(true)
      expect(got.get(id)?.content, id).toMatch(/Refused path .*inside a \.git folder/)
    }
    expect(h.permissionRequests).toEqual([]) // acceptEdits: refused by the path check, not the user
    expect(readFileSync(config, 'utf8')).toBe(configBefore)
    expect(existsSync(join(h.ws.root, 'vendor/lib/.git/hooks/pre-commit'))).toBe(false)
    expect(existsSync(join(h.ws.root, 'vendor/lib/.GIT'))).toBe(false)
    execFileSync('git', ['-C', join(h.ws.root, 'vendor/lib'), 'status'], { stdio: 'ignore' })
    expect(existsSync(join(h.ws.root, marker))).toBe(false)
  })

  test('a symlink leading into a nested .git is refused at any depth', async () => {
    server = await startMessagesServer()
    const h = makeHarness({ model: apiModel(server.url), permissionMode: 'acceptEdits' })
    execFileSync('git', ['init', '-q', join(h.ws.root, 'vendor/lib')])
    mkdirSync(join(h.ws.root, 'docs'))
    symlinkSync('../vendor/lib/.git/hooks', join(h.ws.root, 'docs/hooks'))
    server.push(
      toolUse('tu_link', 'Write', {
        file_path: 'docs/hooks/pre-commit',
        content: '#!/bin/sh\necho ran\n'
      }),
      done
    )
    await h.agent.send('add a hook')
    expect(results(server).get('tu_link')?.content).toMatch(/inside a \.git folder/)
    expect(existsSync(join(h.ws.root, 'vendor/lib/.git/hooks/pre-commit'))).toBe(false)
  })

  test('Grep and Glob never list or search a nested .git, in any case', async () => {
    server = await startMessagesServer()
    const h = makeHarness({ model: apiModel(server.url), permissionMode: 'acceptEdits' })
    h.ws.put('vendor/lib/.git/config', 'token = SECRET\n')
    h.ws.put('vendor/lib/.GIT/config', 'token = SECRET\n')
    h.ws.put('vendor/lib/README', 'no secret here\n')
    server.push(
      toolUse('tu_grep', 'Grep', { pattern: 'SECRET' }),
      toolUse('tu_glob', 'Glob', { pattern: '**/config' }),
      done
    )
    await h.agent.send('find secrets')
    const got = results(server)
    expect(got.get('tu_grep')?.content).toContain('No matches found')
    expect(got.get('tu_glob')?.content).toContain('No files found')
  })
})

describe('Bash change detection never tracks a nested .git', () => {
  test('files a command writes in vendor/x/.git or vendor/x/.GIT get no file_change record', async () => {
    const s = await session()
    s.prompt('vendor a library')
    await s.bash(
      'mkdir -p vendor/x/.git/hooks vendor/x/.GIT && echo hook > vendor/x/.git/hooks/pre-commit && ' +
        'echo cfg > vendor/x/.GIT/config && echo lib > vendor/x/lib.txt'
    )
    const paths = fileChangeRecords(s.store.tree()).map((r) => r.path)
    expect(paths).toEqual(['vendor/x/lib.txt'])
  })
})

describe('a restore never writes into a nested .git', () => {
  test.each(['vendor/x/.git/hooks/pre-commit', 'vendor/x/.GIT/hooks/pre-commit', '.Git/config'])(
    'records naming %s are refused at plan time, naming the record; nothing is written',
    async (path) => {
      const s = await session()
      const hook = s.history.blobs.put(Buffer.from('#!/bin/sh\necho ran\n'), { path })
      const checkpoint = s.prompt('first')
      // A session file is data: this record says the session deleted the hook, so a rewind to
      // before the prompt would write the hook back.
      const [record] = s.store.appendFileChanges([
        { checkpointUuid: checkpoint, path, before: hook, after: null, source: 'Bash' }
      ])
      const plan = s.engine.planRewind(checkpoint, 'code')
      await expect(plan).rejects.toThrow(RewindError)
      await expect(plan).rejects.toThrow(
        new RegExp(`record ${record?.uuid}.*${path.replaceAll('.', '\\.')}.*Nothing was changed`)
      )
      expect(existsSync(join(s.cwd, path))).toBe(false)
    }
  )
})
