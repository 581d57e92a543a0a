// The hostile sweep (stop 46): the folders a session's records say it made (createdFolders) are
// removed by a rewind past them where empty. In a pulled session those records were written on
// another machine: a folder of that name here (a user's, empty) is none of theirs, yet a rewind
// of the fork past that turn removed it. A fork of a pulled session (Continue from here, Fork,
// `fork PULLED_FILE`) copies the records without their folders; one's own fork keeps them.
//
// Real workspace and file history, the agent's real Write tool, the real fork and rewind.
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { fileChangeRecords } from '../../src/core/rewind/other-sessions'
import { forkPulled } from '../../src/core/share/continue'
import { forkSession } from '../../src/core/session/fork'
import { SessionStore } from '../../src/core/session/store'
import { openSession } from '../rewind/fixture'
import { type ToolSession, openToolSession } from '../support/tool-session'

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})

/** A session whose one turn wrote gen/a.txt into a folder it made, closed. */
async function sessionThatMadeGen(): Promise<ToolSession> {
  const s = await openToolSession({ files: { 'README.md': 'hi\n' } })
  s.prompt('generate')
  await s.write('gen/a.txt', 'a\n')
  s.reply('done')
  await s.close()
  return s
}

/** The fork's rewind to before its first prompt, in a workspace where gen/ is the user's. */
async function rewindForkPastGen(s: ToolSession, fork: SessionStore): Promise<string[]> {
  const forked = await openSession({ base: s.cwd, cwd: s.cwd, home: s.home }, fork)
  open.push(forked)
  // This machine: gen/ is a folder of the user's, empty but for the file the fork took over.
  rmSync(join(s.cwd, 'gen'), { recursive: true })
  mkdirSync(join(s.cwd, 'gen'))
  forked.hand('gen/a.txt', 'a\n')
  const result = await forked.engine.rewind(checkpointAt(fork, 1), 'code')
  expect(existsSync(join(s.cwd, 'gen/a.txt'))).toBe(false)
  return result.removedFolders ?? []
}

describe('the folders a session made, in a fork', () => {
  it("of a pulled session are not this machine's: a rewind keeps the user's folder", async () => {
    const s = await sessionThatMadeGen()
    const pulled = SessionStore.open(s.store.file, { readOnly: true })
    const fork = forkPulled(s.home, pulled, pulled.leafUuid ?? '')
    pulled.close()
    const copies = fileChangeRecords(fork.tree())
    expect(copies).toHaveLength(1)
    expect(copies[0]).not.toHaveProperty('createdFolders')
    expect(await rewindForkPastGen(s, fork)).toEqual([])
    expect(existsSync(join(s.cwd, 'gen'))).toBe(true)
  })

  it('of one of our own sessions are its own: the rewind removes them', async () => {
    const s = await sessionThatMadeGen()
    const origin = SessionStore.open(s.store.file, { readOnly: true })
    const fork = forkSession(s.home, origin, origin.leafUuid ?? '')
    origin.close()
    expect(await rewindForkPastGen(s, fork)).toEqual(['gen'])
    expect(existsSync(join(s.cwd, 'gen'))).toBe(false)
  })
})
