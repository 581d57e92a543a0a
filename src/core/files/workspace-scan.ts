// A stat manifest of the workspace's tracked files (what git would track, minus symlinks): the
// cheap "did anything change?" index that Bash change detection compares against. Stats only;
// hashing and backing up content is the caller's business.
//
// Names are read as bytes. A name that is not valid UTF-8 cannot be recorded (session records
// hold UTF-8 paths) nor reopened from the string Node would make of it, so the files at or under
// such names are gathered apart ("unnamed"), by their path shown with the bad bytes as \xHH,
// for the caller to report as not tracked: never skipped silently.
//
// The walk uses synchronous syscalls in small batches, yielding to the event loop between them:
// on 20,000 files that is three to four times faster than one promise per syscall (each one a
// trip through libuv's four-thread pool), and no batch blocks for more than a few milliseconds.
import { isUtf8 } from 'node:buffer'
import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { showBytes } from './file-names'
import type { IgnoreRules } from './ignore-rules'

export interface FileStat {
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
  /** Permission bits (mode & 0o7777): recorded with a change, not compared (a chmod moves ctime). */
  mode: number
}

export function statOf(stats: Stats): FileStat {
  return {
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    ino: stats.ino,
    mode: stats.mode & 0o7777
  }
}

/** Same size, times and inode: taken as unchanged (git's own index makes the same bet). */
export function sameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino
}

/** Files whose path is not valid UTF-8, by that path shown with its bad bytes as \xHH. */
export type UnnamedFiles = Map<string, FileStat>

export interface ScanResult {
  files: Map<string, FileStat>
  /** Every tracked directory walked, '' for the root itself when it was the start. */
  dirs: string[]
  /** Per tracked directory holding names that are not UTF-8: the files at or under them. */
  unnamed: Map<string, UnnamedFiles>
  /** Paths that could not be looked at (longer than the system allows), with why. */
  unchecked: Map<string, string>
}

/**
 * Why a path cannot be looked at, for the errors that concern that one path (the system refuses
 * its name: longer than PATH_MAX); null for any other error, which the caller throws.
 */
export function uncheckableReason(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENAMETOOLONG'
    ? 'could not be checked: its path is longer than the system allows (ENAMETOOLONG)'
    : null
}

/** Directories walked between two yields to the event loop. */
const DIRS_PER_BATCH = 32

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`
}

/**
 * Walks `startRel` (a tracked directory, '' for the root) and stats every tracked file under it.
 * Directories vanishing mid-walk are skipped: the walk races with running commands.
 */
export async function scanTree(
  root: string,
  rules: IgnoreRules,
  startRel = ''
): Promise<ScanResult> {
  const files = new Map<string, FileStat>()
  const dirs: string[] = []
  const unnamed = new Map<string, UnnamedFiles>()
  const unchecked = new Map<string, string>()
  const queue = [startRel]
  for (let next = 0; next < queue.length; next++) {
    const dir = queue[next] ?? ''
    const subdirs = scanDir(root, rules, dir, { files, unnamed, unchecked })
    if (subdirs !== null) {
      dirs.push(dir)
      queue.push(...subdirs)
    }
    if (next % DIRS_PER_BATCH === DIRS_PER_BATCH - 1) await yieldToEventLoop()
  }
  return { files, dirs, unnamed, unchecked }
}

/**
 * The entries of a directory, names as bytes; null when it is gone or no directory; the reason
 * when its path cannot be looked at (uncheckableReason).
 */
function readEntries(abs: string | Buffer): Dirent<Buffer>[] | null | { unchecked: string } {
  try {
    return readdirSync(abs, { withFileTypes: true, encoding: 'buffer' })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    const reason = uncheckableReason(error)
    if (reason !== null) return { unchecked: reason }
    throw error
  }
}

/**
 * Stats the tracked files of one directory into `found.files` (those under names that are not
 * UTF-8 into `found.unnamed`, paths that cannot be looked at into `found.unchecked`); returns
 * its tracked subdirectories, null when it was not read.
 */
function scanDir(
  root: string,
  rules: IgnoreRules,
  dir: string,
  found: Pick<ScanResult, 'files' | 'unnamed' | 'unchecked'>
): string[] | null {
  const entries = readEntries(join(root, dir))
  if (entries === null) return null
  if (!Array.isArray(entries)) {
    found.unchecked.set(dir, entries.unchecked)
    return null
  }
  const odd = unnamedFiles(root, rules, dir, entries)
  if (odd.size > 0) found.unnamed.set(dir, odd)
  const subdirs: string[] = []
  for (const entry of entries) {
    if (!isUtf8(entry.name)) continue
    const rel = joinRel(dir, entry.name.toString('utf8'))
    if (entry.isDirectory()) {
      if (!rules.isIgnored(rel, true)) subdirs.push(rel)
      continue
    }
    if (!entry.isFile() || rules.isIgnored(rel, false)) continue
    try {
      const stats = statFile(join(root, rel))
      if (stats !== null) found.files.set(rel, stats)
    } catch (error) {
      const reason = uncheckableReason(error)
      if (reason === null) throw error
      found.unchecked.set(rel, reason)
    }
  }
  return subdirs
}

/** lstat of a regular file; null when it is gone or is not a regular file. */
export function statFile(abs: string): FileStat | null {
  try {
    const stats = lstatSync(abs)
    return stats.isFile() ? statOf(stats) : null
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}

/**
 * The files at or under the names in tracked directory `dir` that are not UTF-8 (read afresh:
 * a caller re-checks a directory that held some, since no watch reaches inside them).
 */
export function scanUnnamed(root: string, rules: IgnoreRules, dir: string): UnnamedFiles {
  const entries = readEntries(join(root, dir))
  return unnamedFiles(root, rules, dir, Array.isArray(entries) ? entries : [])
}

function unnamedFiles(
  root: string,
  rules: IgnoreRules,
  dir: string,
  entries: Dirent<Buffer>[]
): UnnamedFiles {
  const found: UnnamedFiles = new Map()
  const dirBytes = Buffer.from(join(root, dir, '/'))
  for (const entry of entries) {
    if (!isUtf8(entry.name)) collectUnder(rules, dirBytes, dir, entry, found)
  }
  return found
}

/** Adds the file `entry` is, or every tracked file under the folder it is, to `found`. */
function collectUnder(
  rules: IgnoreRules,
  dirBytes: Buffer,
  shownDir: string,
  entry: Dirent<Buffer>,
  found: UnnamedFiles
): void {
  const abs = Buffer.concat([dirBytes, entry.name])
  const shown = joinRel(shownDir, showBytes(entry.name))
  if (entry.isDirectory()) {
    if (rules.isIgnored(shown, true)) return
    const inner = Buffer.concat([abs, Buffer.from('/')])
    const children = readEntries(abs)
    for (const child of Array.isArray(children) ? children : []) {
      collectUnder(rules, inner, shown, child, found)
    }
    return
  }
  if (!entry.isFile() || rules.isIgnored(shown, false)) return
  try {
    const stats = lstatSync(abs)
    if (stats.isFile()) found.set(shown, statOf(stats))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // Too long to stat: listed still (untracked for its name), its stat unknown.
    if (uncheckableReason(error) !== null) found.set(shown, NO_STAT)
    else if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
  }
}

const NO_STAT: FileStat = { size: 0, mtimeMs: 0, ctimeMs: 0, ino: 0, mode: 0 }
