// A stat manifest of the workspace's tracked files (what git would track, minus symlinks): the
// cheap "did anything change?" index that Bash change detection compares against. Stats only;
// hashing and backing up content is the caller's business.
import { promises as fs, type Stats } from 'node:fs'
import { join } from 'node:path'
import type { IgnoreRules } from './ignore-rules'

export interface FileStat {
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
}

export function statOf(stats: Stats): FileStat {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino }
}

/** Same size, times and inode: taken as unchanged (git's own index makes the same bet). */
export function sameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino
}

export interface ScanResult {
  files: Map<string, FileStat>
  /** Every tracked directory walked, '' for the root itself when it was the start. */
  dirs: string[]
}

const PARALLEL_DIRS = 16

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
  let queue = [startRel]
  while (queue.length > 0) {
    const batch = queue.slice(0, PARALLEL_DIRS)
    queue = queue.slice(PARALLEL_DIRS)
    const found = await Promise.all(batch.map((dir) => scanDir(root, rules, dir, files)))
    for (const [dir, subdirs] of batch.map((d, i) => [d, found[i] ?? null] as const)) {
      if (subdirs === null) continue
      dirs.push(dir)
      queue.push(...subdirs)
    }
  }
  return { files, dirs }
}

/** Stats the tracked files of one directory into `files`; returns its tracked subdirectories. */
async function scanDir(
  root: string,
  rules: IgnoreRules,
  dir: string,
  files: Map<string, FileStat>
): Promise<string[] | null> {
  let entries
  try {
    entries = await fs.readdir(join(root, dir), { withFileTypes: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
  const subdirs: string[] = []
  await Promise.all(
    entries.map(async (entry) => {
      const rel = joinRel(dir, entry.name)
      if (entry.isDirectory()) {
        if (!rules.isIgnored(rel, true)) subdirs.push(rel)
        return
      }
      if (!entry.isFile() || rules.isIgnored(rel, false)) return
      const stats = await statFile(join(root, rel))
      if (stats !== null) files.set(rel, stats)
    })
  )
  return subdirs
}

/** lstat of a regular file; null when it is gone or is not a regular file. */
export async function statFile(abs: string): Promise<FileStat | null> {
  try {
    const stats = await fs.lstat(abs)
    return stats.isFile() ? statOf(stats) : null
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}
