// What the files the session touched hold on disk now, as blob hashes, without reading a file
// again while its stamp is the one seen last time (workspace-files.ts FileStamp: device, inode,
// size, mtime and ctime; trusted only for a file that had settled when read). The "files at"
// marker asks after every change of the tree's shape: the cost is a stat per file, plus a read
// of those that changed.
import { sha256 } from '../files/blob-store'
import { inspectPath, readFileAt } from './workspace-files'

export class DiskHashes {
  private readonly known = new Map<string, { stamp: string; hash: string }>()

  constructor(
    private readonly root: string,
    private readonly settleMs: number
  ) {}

  /**
   * The hash of the regular file at `rel` (null: none there), or undefined when it cannot be
   * looked at safely (a symlink on the path, a path a record should not name, no permission).
   */
  hashOf(rel: string): string | null | undefined {
    try {
      const { abs, stamp } = inspectPath(this.root, rel)
      if (stamp === null) return null
      const seen = this.known.get(rel)
      if (seen !== undefined && seen.stamp === stamp) return seen.hash
      const file = readFileAt(abs, this.settleMs)
      if (file === null) return null
      const hash = sha256(file.content)
      // A file changed within the settle margin may change again without a new stamp.
      if (file.settled) this.known.set(rel, { stamp: file.stamp, hash })
      else this.known.delete(rel)
      return hash
    } catch {
      return undefined
    }
  }

  /** The content of the regular file at `rel` (null: none there; undefined: see hashOf). */
  contentOf(rel: string): Buffer | null | undefined {
    try {
      const { abs } = inspectPath(this.root, rel)
      return readFileAt(abs, this.settleMs)?.content ?? null
    } catch {
      return undefined
    }
  }
}
