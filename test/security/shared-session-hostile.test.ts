// Issue 32, item 5: "a pulled session is a file from someone else: every reader rule holds (no
// path outside the workspace, no .git, masked and escaped text), and a pulled session can never
// write anywhere before the user asks for a restore." Each push here is made by hand with git's
// own commands (anyone with push rights can put anything under refs/rewind-studio/), then
// pulled on another clone and opened in the app.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pullSession } from '../../src/core/share/pull'
import { pulledFile } from '../../src/core/share/pulled'
import type { SharedList } from '../../src/shared/share-views'
import type {
  AppInfo,
  ExportedFile,
  NodeDetail,
  SearchEntry,
  SessionGraph,
  TranscriptEntry
} from '../../src/shared/views'
import { runCli } from '../support/cli'
import { jsonl, pushHandMade, twoMachines, userGitState } from '../support/git-machines'
import { studioHarnesses } from '../support/studio-harness'

const { harness } = studioHarnesses()

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')
const ID = '01a20000-0000-7000-8000-00000000beef'
const KEY = 'sk-ant-api03-' + 'Zx9'.repeat(30)
const at = (n: number) => `2026-11-30T05:18:${String(40 + n).padStart(2, '0')}.000Z`
const uuid = (n: number) => `01a20000-0000-7000-8000-${String(n).padStart(12, '0')}`

/** A shared log: one prompt whose turn "changed" each of `paths` to `content`. */
function hostileLog(paths: string[], content: string, prompt = 'please look at this'): string {
  return jsonl([
    {
      type: 'session',
      uuid: ID,
      parentUuid: null,
      timestamp: at(0),
      version: 1,
      sessionId: ID,
      cwd: '/home/mallory/app'
    },
    {
      type: 'user',
      uuid: uuid(1),
      parentUuid: null,
      timestamp: at(1),
      message: { role: 'user', content: prompt }
    },
    {
      type: 'assistant',
      uuid: uuid(2),
      parentUuid: uuid(1),
      timestamp: at(2),
      message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] }
    },
    ...paths.map((path, i) => ({
      type: 'file_change',
      uuid: uuid(10 + i),
      parentUuid: uuid(2),
      timestamp: at(3),
      checkpointUuid: uuid(1),
      path,
      before: null,
      after: sha(content),
      source: 'Write'
    }))
  ])
}

/** Every file under `dir` (the .git folder included) with a hash of its bytes and its mode. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else out[relative(dir, path)] = `${sha(readFileSync(path))} ${statSync(path).mode}`
    }
  }
  walk(dir)
  return out
}

/** The workspace's files and git folder but for what a pull itself adds: our refs and objects. */
function userFiles(workspace: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(snapshot(workspace)).filter(
      ([path]) =>
        !/^\.git\/(objects|refs\/rewind-studio|packed-refs|logs\/refs\/rewind-studio)/.test(path)
    )
  )
}

describe('a hostile shared session', () => {
  it('with paths out of the workspace, into .git and absolute: pulled and shown, writing nothing; a restore from it refused naming the record', async () => {
    const { a, b, base } = twoMachines()
    const content = '#!/bin/sh\necho owned > /tmp/owned\n'
    const paths = [
      '../outside.txt',
      '.git/hooks/post-checkout',
      join(b.workspace, 'README.md'),
      '.GIT/config',
      'ok.txt'
    ]
    pushHandMade(a.workspace, ID, {
      'log/00000000.jsonl': { content: hostileLog(paths, content) },
      [`backups/${sha(content).slice(0, 2)}/${sha(content)}`]: { content }
    })
    const before = userFiles(b.workspace)
    const bobGit = userGitState(b.workspace)
    const bob = await harness(undefined, undefined, undefined, b)
    const opened = await bob.value<AppInfo>('share:open', { sessionId: ID })
    expect(opened.shared?.sharedBy).toBe('Mallory <mallory@example.com>')
    // Every view reads it.
    const graph = await bob.value<SessionGraph>('session:graph')
    const turn = graph.nodes.find((n) => n.kind === 'turn')
    expect(turn?.title).toBe('please look at this')
    const detail = await bob.value<NodeDetail>('session:node', { nodeId: turn?.id })
    expect(detail.files.map((f) => f.path).sort()).toEqual([...paths].sort())
    // Nothing was written in the workspace, its .git included, nor next to it.
    expect(userFiles(b.workspace)).toEqual(before)
    expect(existsSync(join(base, 'outside.txt'))).toBe(false)
    expect(userGitState(b.workspace)).toEqual(bobGit)

    // Continue from here / Fork with the files: refused at the plan, naming the record.
    const sessionsBefore = (await bob.value<unknown[]>('session:list')).length
    for (const [channel, args] of [
      ['session:forkPreview', { nodeId: turn?.id }],
      ['session:fork', { nodeId: turn?.id, restoreFiles: true }]
    ] as const) {
      const refused = await bob.call(channel, args)
      expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } })
      expect(JSON.stringify(refused)).toMatch(
        /file_change record 01a20000-0000-7000-8000-0000000000\d\d names a path a restore may not touch/
      )
    }
    expect(await bob.value<unknown[]>('session:list')).toHaveLength(sessionsBefore)
    expect(userFiles(b.workspace)).toEqual(before)
    expect(existsSync(join(base, 'outside.txt'))).toBe(false)
    expect(existsSync(join(b.workspace, 'ok.txt'))).toBe(false)
  }, 60_000)

  it('with a backup whose content is not its name, and entries no push writes: those are skipped and named, nothing else taken', async () => {
    const { a, b } = twoMachines()
    const claimed = 'the content the records name\n'
    const other = 'other bytes under that name\n'
    pushHandMade(
      a.workspace,
      ID,
      {
        'log/00000000.jsonl': { content: hostileLog(['ok.txt'], claimed) },
        [`backups/${sha(claimed).slice(0, 2)}/${sha(claimed)}`]: { content: other },
        [`backups/ab/${'ab'.repeat(32)}`]: { content: '../../../../etc/passwd', mode: '120000' },
        'hooks/post-checkout': { content: '#!/bin/sh\n' }
      },
      undefined,
      ['..', '.git']
    )
    const run = await runCli(['share', 'pull', ID, '--cwd', b.workspace], {
      env: { REWIND_STUDIO_HOME: b.home }
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain(`its content is not the one its name says; not kept`)
    expect(run.stderr).toContain(
      '"hooks/post-checkout" (blob 100644) is nothing a push writes: skipped.'
    )
    expect(run.stderr).toMatch(/\(blob 120000\) is nothing a push writes: skipped/)
    expect(run.stderr).toContain('"../escape" (blob 100644) is nothing a push writes: skipped.')
    expect(run.stderr).toContain('".git/escape" (blob 100644) is nothing a push writes: skipped.')
    expect(existsSync(join(b.workspace, 'hooks'))).toBe(false)
    // The turn's file cannot be restored from a backup that lied: it is left alone.
    const bob = await harness(undefined, undefined, undefined, b)
    await bob.value<AppInfo>('share:open', { sessionId: ID })
    const turn = (await bob.value<SessionGraph>('session:graph')).nodes.find(
      (n) => n.kind === 'turn'
    )
    const forked = await bob.value<AppInfo>('session:fork', {
      nodeId: turn?.id,
      restoreFiles: true
    })
    expect(forked.readOnlyReason).toBeNull()
    expect(existsSync(join(b.workspace, 'ok.txt'))).toBe(false)
  }, 60_000)

  it('past what a pull takes (a huge log, a huge backup): refused whole, nothing written', async () => {
    const { a, b } = twoMachines()
    const big = 'y'.repeat(300_000)
    pushHandMade(a.workspace, ID, {
      'log/00000000.jsonl': { content: hostileLog(['big.txt'], big) },
      [`backups/${sha(big).slice(0, 2)}/${sha(big)}`]: { content: big }
    })
    const pull = (limits: object) =>
      pullSession({ home: b.home, workspace: b.workspace, sessionId: ID, limits })
    await expect(pull({ backupBytes: 100_000 })).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/more than a pull takes.*Nothing was pulled/)
    })
    await expect(pull({ logBytes: 100 })).rejects.toMatchObject({ code: 'refused' })
    await expect(pull({ entries: 2 })).rejects.toMatchObject({ code: 'refused' })
    expect(existsSync(pulledFile(b.home, b.workspace, ID))).toBe(false)
    expect(existsSync(join(b.home, 'file-history'))).toBe(false)
  }, 60_000)

  it('with a record far longer than any the app writes: shown cut, the file whole', async () => {
    const { a, b } = twoMachines()
    const huge = `start ${'w'.repeat(2_000_000)} end`
    pushHandMade(a.workspace, ID, { 'log/00000000.jsonl': { content: hostileLog([], 'x', huge) } })
    const bob = await harness(undefined, undefined, undefined, b)
    await bob.value<AppInfo>('share:open', { sessionId: ID })
    const turn = (await bob.value<SessionGraph>('session:graph')).nodes.find(
      (n) => n.kind === 'turn'
    )
    const detail = await bob.value<NodeDetail>('session:node', { nodeId: turn?.id })
    const text = JSON.stringify(detail.entries)
    expect(text.length).toBeLessThan(1_200_000)
    expect(text).toContain('Rewind Studio shows part of this record')
    expect(readFileSync(pulledFile(b.home, b.workspace, ID), 'utf8')).toContain(huge)
  }, 60_000)

  it('holding keys and characters that reorder text: masked and escaped in the list, the app and inspect', async () => {
    const { a, b } = twoMachines()
    const secret = `API_KEY=${KEY}\n`
    pushHandMade(
      a.workspace,
      ID,
      {
        'log/00000000.jsonl': {
          content: hostileLog(['.env'], secret, `use ${KEY} \u202eevil\u202c now`)
        },
        [`backups/${sha(secret).slice(0, 2)}/${sha(secret)}`]: { content: secret },
        'share.json': {
          content: JSON.stringify({
            format: 1,
            sessionId: ID,
            title: `use ${KEY} \u202etxt.exe`,
            scope: { kind: 'all' },
            sharedAt: at(5),
            cwd: '/home/mallory/app',
            code: null,
            counts: { records: 4, turns: 1, files: 1, backups: 1, bytes: 10, masked: 0 }
          })
        }
      },
      'Mal\u202elory\u001b[2J <mallory@example.com>'
    )
    const env = { REWIND_STUDIO_HOME: b.home }
    const listed = await runCli(['share', 'list', '--cwd', b.workspace, '--json'], { env })
    const list = JSON.parse(listed.stdout) as SharedList
    expect(list.sessions[0]?.title).toBe(`use sk-ant-…(${KEY.length} chars, masked) \\u202etxt.exe`)
    expect(list.sessions[0]?.sharedBy).toBe('Mal\\u202elory\\x1b[2J <mallory@example.com>')
    expect(listed.stdout).not.toContain(KEY)

    const bob = await harness(undefined, undefined, undefined, b)
    const opened = await bob.value<AppInfo>('share:open', { sessionId: ID })
    expect(opened.shared?.sharedBy).toBe('Mal\\u202elory\\x1b[2J <mallory@example.com>')
    expect(JSON.stringify(opened)).not.toContain('\u202e')
    const graph = await bob.value<SessionGraph>('session:graph')
    const turn = graph.nodes.find((n) => n.kind === 'turn')
    const shown = JSON.stringify([
      graph,
      await bob.value<TranscriptEntry[]>('session:transcript', { leafUuid: null }),
      await bob.value<SearchEntry[]>('session:searchIndex'),
      await bob.value<NodeDetail>('session:node', { nodeId: turn?.id }),
      await bob.value<ExportedFile>('session:export', { format: 'html', scope: 'all' })
    ])
    expect(shown).not.toContain(KEY)
    expect(shown).toContain(`sk-ant-…(${KEY.length} chars, masked)`)
    const inspect = await runCli(['inspect', pulledFile(b.home, b.workspace, ID)], { env })
    expect(inspect.stdout).not.toContain(KEY)
    expect(inspect.stdout).not.toContain('\u202e')
  }, 60_000)
})
