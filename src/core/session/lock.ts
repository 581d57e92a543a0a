// One writer per session file. Two writers would each append on their own idea of the leaf and
// fork the tree under each other (oh-my-pi #12242, gemini-cli #20855). The writer holds
// `<session>.lock`, created with O_EXCL and holding its pid; a lock whose pid is dead is stale
// and taken over. Everyone else opens the session read-only. Something else at the lock's path
// (a FIFO, a folder) is no lock: it is never read nor removed, and the session opens read-only.
//
// A lock is released when its session closes, and in any case when the process exits: a host
// that gives up waiting for a stuck turn calls process.exit, and that process may then linger
// (Node waits for a libuv thread blocked in a read) with its pid alive, so its lock would
// never look stale. The 'exit' listener removes it before that wait.
import { closeSync, linkSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { PRIVATE_FILE_MODE } from '../os/private-files'
import { NotRegularFileError, readRegularText } from '../os/read-regular-file'
import { uuidv7 } from './uuid-v7'
import { isProcessAlive } from '../os/process-alive'
import { WriteFailedError } from '../os/write-failure'

export interface LockOwner {
  pid: number
  token: string
  since: string
}

export type LockResult = { held: true; release: () => void } | { held: false; reason: string }

export function lockPath(sessionFile: string): string {
  return `${sessionFile}.lock`
}

export function acquireWriterLock(sessionFile: string): LockResult {
  const path = lockPath(sessionFile)
  const me: LockOwner = { pid: process.pid, token: uuidv7(), since: new Date().toISOString() }
  // Two rounds: the second runs after a stale lock was moved aside.
  for (let round = 0; round < 2; round++) {
    if (tryCreate(path, me)) {
      heldByThisProcess(path, me.token)
      return { held: true, release: () => release(path, me.token) }
    }
    const owner = readOwner(path)
    if (owner === 'gone') continue
    if (owner instanceof NotRegularFileError) {
      return {
        held: false,
        reason: `${path} is a ${owner.what}, not a writer lock; opened read-only: nothing will be appended`
      }
    }
    if (owner !== null && isProcessAlive(owner.pid)) {
      const who = owner.pid === process.pid ? 'this process' : `process ${owner.pid}`
      return {
        held: false,
        reason: `${sessionFile} is open in ${who} (since ${owner.since}); opened read-only: nothing will be appended`
      }
    }
    if (!removeStale(path, owner)) continue
  }
  return {
    held: false,
    reason: `could not take the writer lock ${path}; opened read-only: nothing will be appended`
  }
}

function tryCreate(path: string, me: LockOwner): boolean {
  let fd: number
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw new WriteFailedError(path, error, 'nothing was changed')
  }
  try {
    writeSync(fd, JSON.stringify(me))
  } catch (error) {
    // A full disk: the empty lock would say nothing of its owner; it goes, and so do we.
    closeSync(fd)
    rmSync(path, { force: true })
    throw new WriteFailedError(path, error, 'nothing was changed')
  }
  closeSync(fd)
  return true
}

/**
 * The lock's owner; null when unreadable (a writer died between create and write); 'gone' if
 * absent; the refusal when something other than a file is there (never read: a FIFO would block).
 */
function readOwner(path: string): LockOwner | null | 'gone' | NotRegularFileError {
  let text: string | null
  try {
    text = readRegularText(path)
  } catch (error) {
    if (error instanceof NotRegularFileError) return error
    throw error
  }
  if (text === null) return 'gone'
  try {
    const v = JSON.parse(text) as Partial<LockOwner>
    return typeof v.pid === 'number' && typeof v.token === 'string'
      ? { pid: v.pid, token: v.token, since: String(v.since) }
      : null
  } catch {
    return null
  }
}

/**
 * Moves a stale lock aside by rename (atomic), then checks that what moved is the stale lock seen:
 * if another process took the lock over in between, its live lock is put back (link fails rather
 * than overwrite if yet another writer got in) and the caller tries again.
 */
function removeStale(path: string, seen: LockOwner | null): boolean {
  const aside = `${path}.stale-${process.pid}-${uuidv7()}`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
    throw error
  }
  const moved = readOwner(aside)
  // What moved is no lock at all (swapped in since): it goes back, untouched, like a newer lock.
  const sameLock =
    moved instanceof NotRegularFileError
      ? false
      : moved === null || moved === 'gone' || seen === null
        ? true
        : moved.token === seen.token
  if (!sameLock) {
    try {
      linkSync(aside, path)
    } catch {
      // Someone holds a newer lock: theirs stands, and the one moved aside belonged to a writer
      // that will find its lock gone only when it releases (release checks the token).
    }
  }
  unlinkSync(aside)
  return sameLock
}

/** Lock path → token, for every lock this process holds. */
const held = new Map<string, string>()

function heldByThisProcess(path: string, token: string): void {
  if (held.size === 0) process.on('exit', releaseAllHeld)
  held.set(path, token)
}

function releaseAllHeld(): void {
  for (const [path, token] of held) {
    try {
      release(path, token)
    } catch {
      // Exiting: a lock that cannot be removed stays, and is stale once this pid is gone.
    }
  }
}

function release(path: string, token: string): void {
  if (held.get(path) === token) held.delete(path)
  if (held.size === 0) process.off('exit', releaseAllHeld)
  const owner = readOwner(path)
  if (typeof owner === 'object' && owner !== null && 'token' in owner && owner.token === token) {
    unlinkSync(path)
  }
}
