// The rewind's check of what other sessions changed, and gc's and du's scan of what each session's
// records name, read only the logs that changed since they last looked (the session index and the
// usage cache under the data home), and see every change made since. The changed paths are kept
// apart from the list's summaries (reading-*.json, with where reading each log stopped): the list never reads them, and the check
// trusts them only at the stamp they were read at.
import {
  closeSync,
  copyFileSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { workspaceUsage } from '../../src/core/rewind/retention'
import { otherSessionsChanges } from '../../src/core/rewind/other-sessions'
import { workspaceFolder } from '../../src/core/session/paths'
import { Sources } from '../../src/core/sources/discovery'
import { cacheDir } from '../../src/core/sources/file-cache'
import { type WorkspaceSession, makeWorkspace, openSession } from '../rewind/fixture'

const open: WorkspaceSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})

/** Two sessions of one workspace; the other one changed notes.txt and b.txt. */
async function twoSessions() {
  const where = makeWorkspace({ 'notes.txt': 'n0', 'b.txt': 'b0' })
  const mine = await openSession(where)
  const other = await openSession(where)
  open.push(mine, other)
  other.prompt('edit notes')
  await other.write('notes.txt', 'n1')
  other.reply('ok')
  other.prompt('edit b')
  await other.write('b.txt', 'b1')
  other.reply('ok')
  return { where, mine, other }
}

describe('the conflict check over other sessions', () => {
  it('reads a log again only when it changed, and then only its new lines', async () => {
    const { where, mine, other } = await twoSessions()
    const sources = new Sources({ home: where.home })
    const changes = () => otherSessionsChanges(sources, where.cwd, mine.store.sessionId, 0)
    const first = changes()
    expect([...first.keys()].sort()).toEqual(['b.txt', 'notes.txt'])
    const readsAfterFirst = { ...sources.index.reads }

    expect(changes()).toEqual(first)
    expect(sources.index.reads).toEqual(readsAfterFirst)

    const before = statSync(other.store.file).size
    other.prompt('edit notes again')
    await other.write('notes.txt', 'n2')
    const grown = statSync(other.store.file).size - before
    const third = changes()
    expect(third.get('notes.txt')! > first.get('notes.txt')!).toBe(true)
    // Only the other session's log was read, and of it the new lines and two fingerprints.
    expect(sources.index.reads.files).toBe(readsAfterFirst.files + 1)
    expect(sources.index.reads.bytes - readsAfterFirst.bytes).toBeLessThan(grown + 400)
  })
})

describe('the conflict check over this session', () => {
  it('never reads its own log, however it grows, nor a log last written before the check looks', async () => {
    const { where, mine } = await twoSessions()
    mine.prompt('edit b here')
    await mine.write('b.txt', 'b2')
    const sources = new Sources({ home: where.home })
    const changes = (sinceMs = 0) =>
      otherSessionsChanges(sources, where.cwd, mine.store.sessionId, sinceMs)
    changes()
    // The other session's log only: this one is never summarized for the check.
    expect(sources.index.reads.files).toBe(1)
    const before = { ...sources.index.reads }

    // This session goes on (each of its appends changes its log): still nothing read.
    mine.prompt('edit notes here')
    await mine.write('notes.txt', 'n9')
    mine.reply('ok')
    expect([...changes().keys()].sort()).toEqual(['b.txt', 'notes.txt'])
    expect(sources.index.reads).toEqual(before)

    // Sessions last written before the earliest change asked about hold no later one: unread.
    const fresh = new Sources({ home: where.home })
    expect(
      otherSessionsChanges(fresh, where.cwd, mine.store.sessionId, Date.now() + 60_000).size
    ).toBe(0)
    expect(fresh.index.reads.files).toBe(0)
  })
})

/** The index file of `kind` (sessions, changes) of the data home's one folder of ours. */
function indexFile(home: string, kind: string): string {
  const [name, ...more] = readdirSync(cacheDir(home)).filter(
    (n) => n.startsWith(`${kind}-`) && n.endsWith('.json')
  )
  expect(more).toEqual([])
  return join(cacheDir(home), name!)
}

describe('the changed paths of each session', () => {
  it('are kept out of the index the list reads, in a private file the list never reads', async () => {
    const { where, mine, other } = await twoSessions()
    const check = new Sources({ home: where.home })
    otherSessionsChanges(check, where.cwd, mine.store.sessionId, 0)
    const listed = new Sources({ home: where.home }).workspaceSessions(where.cwd)
    expect(listed.map((s) => s.sessionId)).toContain(other.store.sessionId)
    expect(readFileSync(indexFile(where.home, 'sessions'), 'utf8')).not.toContain('notes.txt')
    const changes = indexFile(where.home, 'reading')
    expect(readFileSync(changes, 'utf8')).toContain('notes.txt')
    expect(statSync(changes).mode & 0o777).toBe(0o600)

    // Damaged, it is neither read nor rebuilt by a listing that reads no log: the list never
    // parses it. The check then reads it, finds it damaged, and rebuilds it from the log.
    writeFileSync(changes, '{"version":')
    const again = new Sources({ home: where.home })
    expect(again.workspaceSessions(where.cwd)).toEqual(listed)
    expect(again.index.reads.files).toBe(0)
    expect(readFileSync(changes, 'utf8')).toBe('{"version":')
    const seen = otherSessionsChanges(again, where.cwd, mine.store.sessionId, 0)
    expect([...seen.keys()].sort()).toEqual(['b.txt', 'notes.txt'])
    expect(readFileSync(changes, 'utf8')).toContain('notes.txt')
  })

  it('are read again from the log when their file is missing, cut off or of an older version', async () => {
    const { where, mine } = await twoSessions()
    const first = otherSessionsChanges(
      new Sources({ home: where.home }),
      where.cwd,
      mine.store.sessionId,
      0
    )
    const changes = indexFile(where.home, 'reading')
    const whole = readFileSync(changes, 'utf8')
    const damaged = [
      null,
      whole.slice(0, whole.length / 2),
      // An older version's layout: the right shape, but not this version's.
      whole.replace('"version":4', '"version":3')
    ]
    for (const content of damaged) {
      if (content === null) rmSync(changes)
      else writeFileSync(changes, content)
      const sources = new Sources({ home: where.home })
      expect(otherSessionsChanges(sources, where.cwd, mine.store.sessionId, 0)).toEqual(first)
      // The other session's log, read again whole: its summary's cache was not the one damaged.
      expect(sources.index.reads.files).toBe(1)
      expect(readFileSync(changes, 'utf8')).toBe(whole)
    }
  })

  it('of a log that grew are not taken from a reading file another process wrote from an earlier read', async () => {
    const { where, mine, other } = await twoSessions()
    const changes = () =>
      otherSessionsChanges(new Sources({ home: where.home }), where.cwd, mine.store.sessionId, 0)
    const first = changes()
    const earlier = join(where.home, 'reading-earlier')
    copyFileSync(indexFile(where.home, 'reading'), earlier)

    other.prompt('edit notes again')
    await other.write('notes.txt', 'n2')
    const grown = changes()
    expect(grown.get('notes.txt')! > first.get('notes.txt')!).toBe(true)

    // Two processes wrote the index at once: the one that had read the log before it grew
    // renamed its reading file last, beside the summaries of the other's read.
    copyFileSync(earlier, indexFile(where.home, 'reading'))
    expect(changes()).toEqual(grown)

    // And the log growing again is read whole, not on from the earlier read's changed paths.
    copyFileSync(earlier, indexFile(where.home, 'reading'))
    rmSync(earlier)
    other.prompt('edit b again')
    await other.write('b.txt', 'b2')
    const third = changes()
    expect(third.get('notes.txt')).toBe(grown.get('notes.txt'))
    expect(third.get('b.txt')! > grown.get('b.txt')!).toBe(true)
  })
})

describe('the usage scan of gc and du', () => {
  it('uses what it found in a log whose size and mtime did not change, without reading it', async () => {
    const { where, other } = await twoSessions()
    const workspace = workspaceFolder(where.cwd)
    // A round mtime, so it can be set back exactly after the log is rewritten below.
    const file = other.store.file
    const mtime = new Date('2026-01-01T00:00:00.000Z')
    utimesSync(file, mtime, mtime)
    const usage = await workspaceUsage(where.home, workspace)
    const otherOf = (u: typeof usage) =>
      u.sessions.find((s) => s.sessionId === other.store.sessionId)
    expect(otherOf(usage)).toMatchObject({ checkpoints: 2, missingBlobs: 0 })

    // The log rewritten in place with its size and mtime kept: a scan that read it would now see
    // a backup no store holds (a file_change naming another blob).
    const text = readFileSync(file, 'utf8')
    const at = text.lastIndexOf('"after":"') + '"after":"'.length
    const fd = openSync(file, 'r+')
    writeSync(fd, 'f'.repeat(64), Buffer.byteLength(text.slice(0, at)))
    closeSync(fd)
    utimesSync(file, mtime, mtime)
    const again = await workspaceUsage(where.home, workspace)
    expect(otherOf(again)).toMatchObject({ checkpoints: 2, missingBlobs: 0 })

    // Once the log changes (a new mtime), it is read again and what it says now counts.
    utimesSync(file, mtime, new Date(mtime.getTime() + 5000))
    const after = await workspaceUsage(where.home, workspace)
    expect(otherOf(after)).toMatchObject({ checkpoints: 2, missingBlobs: 1 })
  })
})
