// The day's retention at a session's opening (core/rewind/background-retention.ts): over a few
// logs it prunes before the session opens, as before; over many it prunes in a worker thread
// beside the session, which opens at once (the host's page is not kept waiting on it), and tells
// what it pruned when done: in the session's notices and as a notice event. Real sessions, real
// backups, real worker threads; and the installed command, whose build holds the worker.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  utimesSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { pruneWhenDue } from '../../src/core/rewind/background-retention'
import { SessionStore } from '../../src/core/session/store'
import { WorkspaceSession } from '../../src/core/workspace/workspace-session'
import type { AgentEvent } from '../../src/shared/views'
import { runCli } from '../support/cli'
import { writeManySessions } from '../support/many-sessions'

const open: WorkspaceSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.retention
    await s.close()
  }
})

function workspace() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'rs-bg-retention-')))
  const cwd = join(base, 'ws')
  mkdirSync(cwd)
  return { cwd, home: join(base, 'home') }
}

async function openIn(home: string, cwd: string, events: AgentEvent[] = []) {
  const work = await WorkspaceSession.open({
    home,
    store: SessionStore.create({ home, cwd }),
    model: { id: 'none', complete: () => Promise.reject(new Error('no model here')) },
    permissionMode: 'bypassPermissions',
    checkpointTools: false,
    bashSandbox: false,
    askPermission: async () => true,
    onEvent: (event) => events.push(event)
  })
  open.push(work)
  return work
}

/**
 * A workspace whose file history holds one backup no record names, last used long ago (so the
 * day's retention prunes it), with retention due again; returns the backup's file.
 */
async function withOldOrphan(home: string, cwd: string): Promise<{ orphan: string; root: string }> {
  const first = await openIn(home, cwd)
  const hash = first.history.blobs.put(Buffer.from('named by no record'))
  const orphan = first.history.blobs.pathOf(hash)
  const root = first.history.paths.root
  open.splice(open.indexOf(first), 1)
  await first.retention
  await first.close()
  utimesSync(orphan, new Date(0), new Date(0))
  utimesSync(join(root, 'last-gc'), new Date(0), new Date(0))
  return { orphan, root }
}

const PRUNED = /Retention pruned 1 old backup \(\d+ B\)/

describe('retention at a session opening', () => {
  it('over a few logs, prunes before the session opens and says so in its notices', async () => {
    const { cwd, home } = workspace()
    const { orphan } = await withOldOrphan(home, cwd)
    const work = await openIn(home, cwd)
    expect(work.notices.join('\n')).toMatch(PRUNED)
    expect(existsSync(orphan)).toBe(false)
    expect(await work.retention).toEqual([])
  })

  it('over many logs, opens at once and prunes beside the session, telling it when done', async () => {
    const { cwd, home } = workspace()
    const { orphan } = await withOldOrphan(home, cwd)
    // More log bytes than the opening prunes over before it opens.
    writeManySessions(home, cwd, 9, 1024 * 1024)
    const events: AgentEvent[] = []
    const work = await openIn(home, cwd, events)
    // Opened before the pruning ran: nothing said yet, the old backup still there.
    expect(work.notices.join('\n')).not.toMatch(/Retention/)
    expect(existsSync(orphan)).toBe(true)
    const lines = await work.retention
    expect(lines.join('\n')).toMatch(PRUNED)
    expect(existsSync(orphan)).toBe(false)
    expect(work.notices.join('\n')).toMatch(PRUNED)
    expect(events).toContainEqual({ type: 'notice', level: 'warning', message: lines[0] })
    // Done for the day: the next opening prunes nothing again.
    const again = await openIn(home, cwd)
    expect(again.notices.join('\n')).not.toMatch(/Retention/)
  })

  it('is not started when it ran today', async () => {
    const { cwd, home } = workspace()
    const { root } = await withOldOrphan(home, cwd)
    utimesSync(join(root, 'last-gc'), new Date(), new Date())
    expect(await pruneWhenDue(home, root, 0)).toEqual({ done: [], going: null })
  })

  it('is claimed by one of several openings at once, in one process or several', async () => {
    const { cwd, home } = workspace()
    const { orphan, root } = await withOldOrphan(home, cwd)
    writeManySessions(home, cwd, 1, 10_000) // a log, so that a threshold of 0 takes the worker
    const runs = await Promise.all([0, 1, 2, 3].map(() => pruneWhenDue(home, root, 0)))
    const started = runs.filter((run) => run.going !== null)
    expect(started).toHaveLength(1)
    expect((await started[0]?.going)?.join('\n')).toMatch(PRUNED)
    expect(existsSync(orphan)).toBe(false)
    expect(existsSync(join(root, 'last-gc.claim'))).toBe(false)
    // Another process's claim, held now: this opening leaves the day's run to it.
    utimesSync(join(root, 'last-gc'), new Date(0), new Date(0))
    writeFileSync(join(root, 'last-gc.claim'), '')
    expect(await pruneWhenDue(home, root, 0)).toEqual({ done: [], going: null })
    // One a crash left long ago goes; the opening after it claims.
    utimesSync(join(root, 'last-gc.claim'), new Date(0), new Date(0))
    expect(await pruneWhenDue(home, root, 0)).toEqual({ done: [], going: null })
    expect(existsSync(join(root, 'last-gc.claim'))).toBe(false)
    const next = await pruneWhenDue(home, root, 0)
    expect(next.going).not.toBeNull()
    await next.going
  })

  it('runs its worker from the installed command’s build', async () => {
    const { cwd, home } = workspace()
    const { orphan } = await withOldOrphan(home, cwd)
    writeManySessions(home, cwd, 9, 1024 * 1024)
    const script = join(home, 'script.json')
    writeFileSync(script, JSON.stringify({ rules: [] }))
    const chat = await runCli(['chat', '--cwd', cwd, '--model', `scripted:${script}`], {
      input: '/exit\n',
      env: { REWIND_STUDIO_HOME: home }
    })
    // Told once the worker is done: after the prompt, which the chat shows as soon as it opens.
    // The /exit came first (the worker, at the lowest priority, reads 9 MB meanwhile): the chat
    // said why it had not left yet.
    expect(chat.stderr).toBe('')
    const waiting = chat.stdout.indexOf("Finishing today's backup retention before leaving")
    expect(waiting).toBeGreaterThan(chat.stdout.indexOf('❯'))
    expect(chat.stdout.search(PRUNED)).toBeGreaterThan(waiting)
    expect(existsSync(orphan)).toBe(false)
  })
})
