// The workspace's content-addressed backup store: one immutable file per distinct content,
// named by the sha256 of the raw bytes, zlib-compressed on disk. Shared by every session of the
// workspace, so a file's content is stored once however many turns or sessions keep it.
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import { deflateSync, inflateSync } from 'node:zlib'

/** Level 1 keeps the first checkpoint's snapshot of a big workspace quick; git's loose objects use the same. */
const COMPRESSION_LEVEL = 1

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}

const HASH = /^[0-9a-f]{64}$/

let tempCount = 0

export class BlobMissingError extends Error {
  constructor(readonly hash: string) {
    super(`Backup ${hash.slice(0, 12)}… is not in the store (pruned by retention, or never kept)`)
    this.name = 'BlobMissingError'
  }
}

export class BlobStore {
  /** Shard folders known to exist, so a put costs no mkdir. */
  private readonly shards = new Set<string>()

  constructor(readonly dir: string) {}

  pathOf(hash: string): string {
    // A hash comes from session records; a malformed one must not become a path.
    if (!HASH.test(hash)) throw new Error(`Not a sha256 hash: ${JSON.stringify(hash)}`)
    return join(this.dir, hash.slice(0, 2), hash)
  }

  async has(hash: string): Promise<boolean> {
    return existsSync(this.pathOf(hash))
  }

  /**
   * Keeps `content` and returns its hash. Written to a temp file and renamed, so a crash leaves
   * either no blob or a whole one. Throws (disk full, permission) rather than returning a hash
   * whose blob is not there: callers refuse the change they were backing up.
   *
   * Synchronous on purpose: one blob blocks for well under a millisecond, and the first
   * checkpoint of a big workspace backs up thousands of them, where a round trip through the
   * libuv thread pool per syscall made it four times slower. Callers yield between batches.
   */
  put(content: Buffer): string {
    const hash = sha256(content)
    const target = this.pathOf(hash)
    if (touchIfPresent(target)) return hash
    const shard = dirname(target)
    if (!this.shards.has(shard)) {
      mkdirSync(shard, { recursive: true })
      this.shards.add(shard)
    }
    // pid + counter: unique without asking the OS for random bytes per blob.
    const temp = `${target}.${process.pid}-${++tempCount}.tmp`
    try {
      writeFileSync(temp, deflateSync(content, { level: COMPRESSION_LEVEL }))
      renameSync(temp, target)
    } catch (error) {
      rmSync(temp, { force: true })
      throw error
    }
    return hash
  }

  /** The content of `hash`; BlobMissingError when it is gone. */
  async get(hash: string): Promise<Buffer> {
    return this.read(hash)
  }

  /** get(), synchronously (restores read blobs in batches; see put()). */
  read(hash: string): Buffer {
    let packed: Buffer
    try {
      packed = readFileSync(this.pathOf(hash))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissingError(hash)
      throw error
    }
    return inflateSync(packed)
  }
}

/**
 * A blob that is used again gets a fresh mtime: retention prunes by age, and an old blob that a
 * live session just started relying on must count as young.
 */
function touchIfPresent(path: string): boolean {
  // existsSync first: a failed utimes throws, and an exception per new blob is measurable.
  if (!existsSync(path)) return false
  const now = new Date()
  utimesSync(path, now, now)
  return true
}
