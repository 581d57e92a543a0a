// Detects what a command (Bash, or any tool that bypasses Write/Edit) created, modified or
// deleted in the workspace. The first call takes a baseline: a stat manifest of every tracked
// file plus a backup of its content (the one-time cost: a later change by a command must have
// its "before" content at hand). After that, each call re-stats only what the watcher saw move,
// hashes only files whose stat changed, and backs up only content the store does not hold yet.
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { BlobStore } from './blob-store'
import { IgnoreRules } from './ignore-rules'
import { type FileStat, sameStat, scanTree, statFile } from './workspace-scan'
import type { WorkspaceWatcher } from './workspace-watcher'

interface Entry {
  stat: FileStat
  /** sha256 of the content; null when the file is over the size cap (not backed up). */
  hash: string | null
}

export type DetectedChange =
  | { kind: 'tracked'; path: string; before: string | null; after: string | null }
  | { kind: 'untracked'; path: string; reason: string }

const PARALLEL_FILES = 32

export class WorkspaceChanges {
  private manifest: Map<string, Entry> | null = null
  private rules: IgnoreRules

  constructor(
    private readonly root: string,
    private readonly blobs: BlobStore,
    private readonly watcher: WorkspaceWatcher,
    private readonly sizeCapBytes: number
  ) {
    this.rules = new IgnoreRules(root)
  }

  get hasBaseline(): boolean {
    return this.manifest !== null
  }

  /**
   * Brings the manifest up to date and returns what changed since the previous call (nothing on
   * the first call, which takes the baseline). Backup failures throw: the caller decides whether
   * that refuses a command (before it) or is reported (after it).
   */
  async refresh(): Promise<DetectedChange[]> {
    if (this.manifest === null) {
      this.watcher.take()
      this.manifest = await this.fullScan(new Map())
      return []
    }
    await this.watcher.flush()
    const dirty = this.watcher.take()
    const old = this.manifest
    const next =
      dirty === 'everything' || [...dirty].some((p) => p.endsWith('.gitignore'))
        ? await this.fullScan(old)
        : await this.partialScan(old, dirty)
    this.manifest = next
    return diffManifests(old, next, this.sizeCapBytes)
  }

  /** What the manifest holds for `rel` (used to tell a hand edit from the agent's own write). */
  hashOf(rel: string): string | null | undefined {
    return this.manifest?.get(rel)?.hash
  }

  private async fullScan(old: Map<string, Entry>): Promise<Map<string, Entry>> {
    // .gitignore files may have changed: read them afresh.
    this.rules = new IgnoreRules(this.root)
    this.watcher.unwatchUnder('')
    const scan = await scanTree(this.root, this.rules)
    this.watcher.watchDirs(scan.dirs)
    return this.hashChanged(old, scan.files)
  }

  private async partialScan(
    old: Map<string, Entry>,
    dirty: Set<string>
  ): Promise<Map<string, Entry>> {
    const next = new Map(old)
    const stats = new Map<string, FileStat>()
    for (const rel of dirty) {
      const abs = join(this.root, rel)
      let isDir = false
      try {
        isDir = (await fs.lstat(abs)).isDirectory()
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
      // Whatever was known at or under this path is re-learned from the disk.
      dropUnder(next, rel)
      if (isDir) {
        if (this.rules.isIgnored(rel, true)) continue
        this.watcher.unwatchUnder(rel)
        const scan = await scanTree(this.root, this.rules, rel)
        this.watcher.watchDirs(scan.dirs)
        for (const [path, stat] of scan.files) stats.set(path, stat)
        continue
      }
      this.watcher.unwatchUnder(rel)
      if (this.rules.isIgnored(rel, false)) continue
      const stat = await statFile(abs)
      if (stat !== null) stats.set(rel, stat)
    }
    const hashed = await this.hashChanged(old, stats)
    for (const [path, entry] of hashed) next.set(path, entry)
    return next
  }

  /** Entries for `stats`: reused where the stat is unchanged, else hashed and backed up. */
  private async hashChanged(
    old: Map<string, Entry>,
    stats: Map<string, FileStat>
  ): Promise<Map<string, Entry>> {
    const result = new Map<string, Entry>()
    const toHash: [string, FileStat][] = []
    for (const [path, stat] of stats) {
      const known = old.get(path)
      if (known !== undefined && sameStat(known.stat, stat)) result.set(path, known)
      else toHash.push([path, stat])
    }
    for (let i = 0; i < toHash.length; i += PARALLEL_FILES) {
      const batch = toHash.slice(i, i + PARALLEL_FILES)
      const entries = await Promise.all(batch.map(([path, stat]) => this.backUp(path, stat)))
      entries.forEach((entry, j) => {
        const path = batch[j]?.[0]
        if (entry !== null && path !== undefined) result.set(path, entry)
      })
    }
    return result
  }

  private async backUp(path: string, stat: FileStat): Promise<Entry | null> {
    if (stat.size > this.sizeCapBytes) return { stat, hash: null }
    let content: Buffer
    try {
      content = await fs.readFile(join(this.root, path))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
    // Bytes read may be newer than the stat: keep the stat of what we hashed.
    const now = await statFile(join(this.root, path))
    if (now === null) return null
    if (content.length > this.sizeCapBytes) return { stat: now, hash: null }
    return { stat: now, hash: await this.blobs.put(content) }
  }
}

function dropUnder(manifest: Map<string, Entry>, rel: string): void {
  manifest.delete(rel)
  const prefix = `${rel}/`
  for (const path of manifest.keys()) if (path.startsWith(prefix)) manifest.delete(path)
}

function diffManifests(
  old: Map<string, Entry>,
  next: Map<string, Entry>,
  sizeCapBytes: number
): DetectedChange[] {
  const changes: DetectedChange[] = []
  const overCap = `larger than the ${Math.round(sizeCapBytes / 1_000_000)} MB backup cap`
  const report = (path: string, before: Entry | undefined, after: Entry | undefined) => {
    const beforeHash = before === undefined ? null : before.hash
    const afterHash = after === undefined ? null : after.hash
    if (
      (before !== undefined && before.hash === null) ||
      (after !== undefined && after.hash === null)
    ) {
      changes.push({ kind: 'untracked', path, reason: overCap })
    } else if (beforeHash !== afterHash) {
      changes.push({ kind: 'tracked', path, before: beforeHash, after: afterHash })
    }
  }
  for (const [path, entry] of next) {
    const before = old.get(path)
    if (before === entry) continue
    report(path, before, entry)
  }
  for (const [path, entry] of old) if (!next.has(path)) report(path, entry, undefined)
  return changes.sort((a, b) => a.path.localeCompare(b.path))
}
