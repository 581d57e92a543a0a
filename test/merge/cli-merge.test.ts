// `rewind-studio merge` on a real session and workspace: the plan as JSON, conflicts that change
// nothing and exit 1, --strategy, `rewind --undo` reversing the merge, and the conversation
// brought in as a summary made by the scripted model and by the real SDK (loopback server).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { MergeRecord } from '../../src/core/session/records'
import { SessionStore } from '../../src/core/session/store'
import { buildMessages } from '../../src/core/agent/context'
import { SUMMARY_SYSTEM } from '../../src/core/agent/summary/summary-request'
import { repoRoot, runCli } from '../support/cli'
import { type MessagesServer, startMessagesServer } from '../support/messages-server'
import { type WorkspaceSession, newSession } from '../rewind/fixture'

const script = `scripted:${join(repoRoot, 'test/fixtures/seed-walkthrough.json')}`
const open: WorkspaceSession[] = []
let server: MessagesServer | null = null
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => undefined)
  await server?.close()
  server = null
})

const lines = (...l: string[]) => `${l.join('\n')}\n`

/**
 * Turn 1 writes the base; turn 2 (their branch, numbered 3 by the CLI: the active path's turns
 * come first) changes a.txt at the top and c.txt; a rewind; turn 2 here changes a.txt at the
 * bottom and c.txt the same line. Closed, so the CLI can take the writer lock.
 */
async function twoBranches(): Promise<WorkspaceSession> {
  const s = await newSession()
  open.push(s)
  s.prompt('write the base')
  await s.write('a.txt', lines('one', 'two', 'three', 'four', 'five'))
  await s.write('c.txt', lines('a', 'b', 'c'))
  s.reply('base written')
  const second = s.prompt('their change: found that ONE must be upper case')
  await s.write('a.txt', lines('ONE', 'two', 'three', 'four', 'five'))
  await s.write('c.txt', lines('a', 'THEIRS', 'c'))
  await s.write('added.txt', 'new there\n')
  s.reply('their change made')
  await s.engine.rewind(second, 'both')
  s.prompt('our change')
  await s.write('a.txt', lines('one', 'two', 'three', 'four', 'FIVE'))
  await s.write('c.txt', lines('a', 'OURS', 'c'))
  s.reply('our change made')
  await s.close()
  return s
}

function env(s: WorkspaceSession, more: Record<string, string> = {}) {
  return { env: { REWIND_STUDIO_HOME: s.home, ...more } }
}

describe('cli merge --files', () => {
  it('prints the plan with --dry-run --json and changes nothing', async () => {
    const s = await twoBranches()
    const log = readFileSync(s.store.file, 'utf8')
    const run = await runCli(
      ['merge', s.store.file, '--from', '3', '--files', '--dry-run', '--json'],
      env(s)
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const plan = JSON.parse(run.stdout) as {
      files: { path: string; change: string; status: string; conflict?: string; ours?: unknown }[]
      clean: number
      conflicts: number
    }
    expect(plan.files.map((f) => [f.path, f.change, f.status, f.conflict ?? null])).toEqual([
      ['a.txt', 'modified', 'clean', null],
      ['added.txt', 'added', 'clean', null],
      ['c.txt', 'modified', 'conflict', 'content']
    ])
    expect(plan.files[0]).not.toHaveProperty('ours')
    expect([plan.clean, plan.conflicts]).toEqual([2, 1])
    expect(readFileSync(s.store.file, 'utf8')).toBe(log)
    expect(s.read('a.txt')).toBe(lines('one', 'two', 'three', 'four', 'FIVE'))
  }, 60_000)

  it('exits 1 listing the conflicts and changes nothing; --strategy merges; rewind --undo reverses it', async () => {
    const s = await twoBranches()
    const log = readFileSync(s.store.file, 'utf8')
    const refused = await runCli(['merge', s.store.file, '--from', '3', '--files'], env(s))
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('conflict: c.txt (both changed the same lines)')
    expect(refused.stderr).toContain('Nothing was changed.')
    expect(readFileSync(s.store.file, 'utf8')).toBe(log)
    expect(s.read('c.txt')).toBe(lines('a', 'OURS', 'c'))
    expect(s.read('added.txt')).toBeNull()

    const merged = await runCli(
      ['merge', s.store.file, '--from', '3', '--files', '--strategy', 'theirs'],
      env(s)
    )
    expect(merged.stderr).toBe('')
    expect(merged.code).toBe(0)
    expect(merged.stdout).toMatch(/Brought in \(.+\): 3 file\(s\), 3 written/)
    expect(s.read('a.txt')).toBe(lines('ONE', 'two', 'three', 'four', 'FIVE'))
    expect(s.read('c.txt')).toBe(lines('a', 'THEIRS', 'c'))
    expect(s.read('added.txt')).toBe('new there\n')

    const undo = await runCli(['rewind', s.store.file, '--undo'], env(s))
    expect(undo.stderr).toBe('')
    expect(undo.stdout).toMatch(/Undone: Brought in 3 files from/)
    expect(s.read('a.txt')).toBe(lines('one', 'two', 'three', 'four', 'FIVE'))
    expect(s.read('c.txt')).toBe(lines('a', 'OURS', 'c'))
    expect(s.read('added.txt')).toBeNull()
  }, 60_000)

  it('refuses usage it cannot follow with exit 2', async () => {
    const s = await twoBranches()
    expect((await runCli(['merge', s.store.file, '--from', '3'], env(s))).code).toBe(2)
    expect((await runCli(['merge', s.store.file, '--files'], env(s))).code).toBe(2)
    const bad = await runCli(
      ['merge', s.store.file, '--from', '3', '--files', '--strategy', 'mine'],
      env(s)
    )
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--strategy must be ours or theirs')
    const dry = await runCli(
      ['merge', s.store.file, '--from', '2', '--into', '3', '--files', '--dry-run'],
      env(s)
    )
    expect(dry.code).toBe(2)
    expect(dry.stderr).toContain(
      'is not the node the conversation is on, and a dry run changes nothing'
    )
  }, 60_000)
})

describe('cli merge --into', () => {
  it('lands on the branch of another node: the files and conversation move there, then the merge; two undos come back', async () => {
    const s = await twoBranches()
    const before = SessionStore.open(s.store.file, { readOnly: true })
    const ourLeaf = before.leafUuid
    before.close()
    // Ours (turn 2) into theirs (turn 3): their branch gets our bottom line and, with
    // --strategy ours (the branch merged into), keeps its own line of c.txt.
    const run = await runCli(
      ['merge', s.store.file, '--from', '2', '--into', '3', '--files', '--strategy', 'ours'],
      env(s)
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Moved to the branch of 3')
    expect(s.read('a.txt')).toBe(lines('ONE', 'two', 'three', 'four', 'FIVE'))
    expect(s.read('c.txt')).toBe(lines('a', 'THEIRS', 'c'))
    expect(s.read('added.txt')).toBe('new there\n')
    const store = SessionStore.open(s.store.file, { readOnly: true })
    const merge = store.tree().get(store.leafUuid ?? '') as MergeRecord
    expect(merge.type).toBe('merge')
    // The merge's parent is the end of their branch, not where the conversation was.
    expect(
      store
        .tree()
        .pathTo(merge.parentUuid)
        .map((r) => r.uuid)
    ).not.toContain(ourLeaf)
    store.close()

    expect((await runCli(['rewind', s.store.file, '--undo'], env(s))).code).toBe(0)
    expect(s.read('a.txt')).toBe(lines('ONE', 'two', 'three', 'four', 'five'))
    expect((await runCli(['rewind', s.store.file, '--undo'], env(s))).code).toBe(0)
    expect(s.read('a.txt')).toBe(lines('one', 'two', 'three', 'four', 'FIVE'))
    expect(s.read('added.txt')).toBeNull()
    const after = SessionStore.open(s.store.file, { readOnly: true })
    expect(after.leafUuid).toBe(ourLeaf)
    after.close()
  }, 60_000)

  it('moves back when the merge there cannot be made: conflicts without --strategy leave the files and conversation as they were', async () => {
    const s = await twoBranches()
    const before = SessionStore.open(s.store.file, { readOnly: true })
    const ourLeaf = before.leafUuid
    before.close()
    const run = await runCli(
      ['merge', s.store.file, '--from', '2', '--into', '3', '--files'],
      env(s)
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('conflict: c.txt (both changed the same lines)')
    expect(run.stderr).toContain('moved back from the branch of 3')
    expect(s.read('a.txt')).toBe(lines('one', 'two', 'three', 'four', 'FIVE'))
    expect(s.read('c.txt')).toBe(lines('a', 'OURS', 'c'))
    expect(s.read('added.txt')).toBeNull()
    const after = SessionStore.open(s.store.file, { readOnly: true })
    expect(after.leafUuid).toBe(ourLeaf)
    after.close()
  }, 60_000)

  it('refuses a node whose branch has it already, changing nothing', async () => {
    const s = await twoBranches()
    const log = readFileSync(s.store.file, 'utf8')
    const run = await runCli(
      ['merge', s.store.file, '--from', '3', '--into', '3', '--files'],
      env(s)
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('is on the branch of --into 3 already')
    expect(readFileSync(s.store.file, 'utf8')).toBe(log)
  }, 60_000)
})

describe('a session another process holds', () => {
  it('is refused by merge and summarize alike: one line, exit 1, nothing changed', async () => {
    const s = await twoBranches()
    const log = readFileSync(s.store.file, 'utf8')
    const holder = SessionStore.open(s.store.file)
    try {
      const merge = await runCli(
        ['merge', s.store.file, '--from', '3', '--files', '--strategy', 'theirs'],
        env(s)
      )
      const summarize = await runCli(
        ['summarize', s.store.file, '--up-to', '2', '--model', script],
        env(s)
      )
      for (const run of [merge, summarize]) {
        expect(run.code).toBe(1)
        expect(run.stderr).toMatch(/^rewind-studio: cannot change .*Nothing was changed\.\n$/)
      }
    } finally {
      holder.close()
    }
    expect(readFileSync(s.store.file, 'utf8')).toBe(log)
    expect(s.read('c.txt')).toBe(lines('a', 'OURS', 'c'))
  }, 60_000)
})

describe('cli merge --conversation', () => {
  it('appends a summary made by the scripted model as a record the model sees', async () => {
    const s = await twoBranches()
    const run = await runCli(
      ['merge', s.store.file, '--from', '3', '--conversation', '--model', script],
      env(s)
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('DEBUG was removed on this branch.')
    const store = SessionStore.open(s.store.file, { readOnly: true })
    try {
      const leaf = store.tree().get(store.leafUuid ?? '') as MergeRecord
      expect(leaf.type).toBe('merge')
      expect(leaf.summarySource).toBe('summary')
      expect(leaf.files).toEqual([])
      const seen = JSON.stringify(buildMessages(store.tree().activePath()))
      expect(seen).toContain('Summary of that branch')
      expect(seen).toContain('DEBUG was removed on this branch.')
    } finally {
      store.close()
    }
    // Files untouched by a conversation-only merge.
    expect(s.read('c.txt')).toBe(lines('a', 'OURS', 'c'))
    // The same conclusions again: refused, the log as it was.
    const log = readFileSync(s.store.file, 'utf8')
    const again = await runCli(
      ['merge', s.store.file, '--from', '3', '--conversation', '--model', script],
      env(s)
    )
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('this branch holds its conclusions already')
    expect(readFileSync(s.store.file, 'utf8')).toBe(log)
  }, 60_000)

  it('asks the real model through the SDK, with the branch from where it parts and the instructions', async () => {
    server = await startMessagesServer([
      { kind: 'message', content: [{ type: 'text', text: 'ONE must be upper case.' }] }
    ])
    const s = await twoBranches()
    const run = await runCli(
      [
        'merge',
        s.store.file,
        '--from',
        '3',
        '--conversation',
        '--files',
        '--strategy',
        'ours',
        '--instructions',
        'only the naming rule',
        '--model',
        'claude-test'
      ],
      env(s, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url })
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const asked = server.requests[0]?.body
    expect(JSON.stringify(asked?.system)).toContain(SUMMARY_SYSTEM.slice(0, 40))
    const sent = JSON.stringify(asked?.messages)
    expect(sent).toContain('found that ONE must be upper case')
    expect(sent).not.toContain('our change')
    expect(sent).toContain('only the naming rule')
    const store = SessionStore.open(s.store.file, { readOnly: true })
    try {
      const leaf = store.tree().get(store.leafUuid ?? '') as MergeRecord
      expect(leaf.summary).toContain('ONE must be upper case.')
      expect(leaf.files.map((f) => [f.path, f.resolution])).toEqual([
        ['a.txt', 'clean'],
        ['added.txt', 'clean'],
        ['c.txt', 'ours']
      ])
    } finally {
      store.close()
    }
    expect(s.read('c.txt')).toBe(lines('a', 'OURS', 'c'))
    expect(s.read('a.txt')).toBe(lines('ONE', 'two', 'three', 'four', 'FIVE'))
  }, 60_000)
})
