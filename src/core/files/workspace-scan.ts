// A stat manifest of the workspace's files (what git would track, minus symlinks, and what it
// ignores within a scope: ignored-files.ts): the cheap "did anything change?" index that Bash
// change detection compares against. Stats only; hashing and backing up content is the caller's
// business.
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
import { yieldToEventLoop } from '../os/event-loop'
import { showBytes } from './file-names'
import type { IgnoreRules } from './ignore-rules'
import { isGitFolderName } from '../os/git-folder-name'

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

/**
 * How far a walk goes into what git ignores (ignored-files.ts): skip folders are never read, and
 * past its room for ignored files and folders the rest is left unread.
 */
export interface IgnoredScope {
  skipFolders: ReadonlySet<string>
  /** Ignored files it may still stat. */
  filesLeft: number
  /** Ignored folders it may still read (or watch, for a skip folder). */
  foldersLeft: number
}

/** A walk that takes nothing git ignores (the scope of the tools' own walks, and of old). */
export const TRACKED_ONLY: IgnoredScope = { skipFolders: new Set(), filesLeft: 0, foldersLeft: 0 }

export interface ScanResult {
  files: Map<string, FileStat>
  /** The files of `files` that git ignores. */
  ignored: Set<string>
  /** Every directory read, '' for the root itself when it was the start. */
  dirs: string[]
  /**
   * The ignored ones among `dirs`, and the skip folders found, each with the folder its
   * changes are named under: the outermost ignored folder it lies in, or the skip folder.
   */
  ignoredDirs: Map<string, string>
  /** Skip folders found: to be watched for their own entries, never read. */
  skipped: string[]
  /** Folders read in part: ignored files past the room were not looked at. */
  partial: Set<string>
  /** Ignored folders left unread (past the room), each with the folder it is named under. */
  unread: Map<string, string>
  /** Per directory holding names that are not UTF-8: the tracked files at or under them. */
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

function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`
}

/**
 * Walks `startRel` ('' for the root) and stats every file under it that git tracks, and those
 * it ignores within `scope`. `startGroup`: when `startRel` is itself ignored, the folder its
 * changes are named under (the outermost ignored folder it lies in); null when it is tracked.
 * Directories vanishing mid-walk are skipped: the walk races with running commands.
 */
/** A scan that found nothing yet: what a scan fills, and a workspace with no files. */
export function emptyScan(): ScanResult {
  return {
    files: new Map(),
    ignored: new Set(),
    dirs: [],
    ignoredDirs: new Map(),
    skipped: [],
    partial: new Set(),
    unread: new Map(),
    unnamed: new Map(),
    unchecked: new Map()
  }
}

export async function scanTree(
  root: string,
  rules: IgnoreRules,
  startRel = '',
  scope: IgnoredScope = TRACKED_ONLY,
  startGroup: string | null = null
): Promise<ScanResult> {
  const found = emptyScan()
  const room = { files: scope.filesLeft, folders: scope.foldersLeft }
  const queue: { dir: string; group: string | null }[] = [{ dir: startRel, group: startGroup }]
  for (let next = 0; next < queue.length; next++) {
    const { dir, group } = queue[next] ?? { dir: '', group: null }
    const subdirs = scanDir(root, rules, dir, group, scope.skipFolders, room, found)
    if (subdirs !== null) {
      found.dirs.push(dir)
      if (group !== null) found.ignoredDirs.set(dir, group)
      queue.push(...subdirs)
    }
    if (next % DIRS_PER_BATCH === DIRS_PER_BATCH - 1) await yieldToEventLoop()
  }
  return found
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
 * Stats the files of one directory into `found` (its `group`: null when git tracks it, else the
 * folder its changes are named under) and sorts its subdirectories: returns those to read next,
 * null when it was not read. Ignored entries take from `room`.
 */
function scanDir(
  root: string,
  rules: IgnoreRules,
  dir: string,
  group: string | null,
  skipFolders: ReadonlySet<string>,
  room: { files: number; folders: number },
  found: ScanResult
): { dir: string; group: string | null }[] | null {
  const entries = readEntries(join(root, dir))
  if (entries === null) return null
  if (!Array.isArray(entries)) {
    found.unchecked.set(dir, entries.unchecked)
    return null
  }
  if (group === null) {
    const odd = unnamedFiles(root, rules, dir, entries)
    if (odd.size > 0) found.unnamed.set(dir, odd)
  }
  const subdirs: { dir: string; group: string | null }[] = []
  for (const entry of entries) {
    if (!isUtf8(entry.name)) continue
    const name = entry.name.toString('utf8')
    if (isGitFolderName(name)) continue
    const rel = joinRel(dir, name)
    if (entry.isDirectory()) {
      // Everything under an ignored folder is ignored (git does not look inside it for a rule
      // that would take a file back).
      const inner = group ?? (rules.isIgnored(rel, true) ? rel : null)
      if (inner === null) subdirs.push({ dir: rel, group: null })
      else if (room.folders <= 0) found.unread.set(rel, inner)
      else if (skipFolders.has(name)) {
        room.folders--
        found.skipped.push(rel)
        found.ignoredDirs.set(rel, rel)
      } else {
        room.folders--
        subdirs.push({ dir: rel, group: inner })
      }
      continue
    }
    if (!entry.isFile()) continue
    const ignored = group !== null || rules.isIgnored(rel, false)
    if (ignored) {
      if (room.files <= 0) {
        found.partial.add(dir)
        continue
      }
      room.files--
    }
    try {
      const stats = statFile(join(root, rel))
      if (stats === null) continue
      found.files.set(rel, stats)
      if (ignored) found.ignored.add(rel)
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
