// Reading another tool's git object store, read-only, without git: Gemini CLI keeps its
// checkpoints as commits of a shadow repository (`<gemini home>/history/<project>/.git`) and
// OpenCode its snapshots as trees of a bare one (`<data>/snapshot/<project>/<hash>/`, whose
// `objects/info/alternates` names the workspace's own `.git/objects`). Running git there would
// run what its config names (a hostile `core.fsmonitor`, hooks), take locks and write index
// files; reading the objects needs none of it: loose objects (zlib), pack files (index v2,
// offset and reference deltas) and alternates. Nothing is ever written.
//
// Every object is found by its sha-1 name and checked against it (what is read is what was
// named), every read is bounded (an object's size, a delta chain's length, a tree's entries and
// depth, the alternates followed), and every file is opened through os/read-regular-file.ts (a
// FIFO where a pack is expected is refused, never waited on). A missing or damaged object throws
// GitObjectError, saying which.
import { readdirSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { CodedError } from '../../../shared/coded-error'
import { readRegularFile, readRegularFileAt } from '../../os/read-regular-file'

/**
 * node:zlib and node:crypto, loaded when an object is first read: this module is loaded with
 * every reader of a log (session/load.ts lists the foreign readers), of ours too, and the two
 * cost ~3 and ~5 ms of CPU to load (bench/cli-startup.ts, bench/summarize-process.ts).
 */
const zlib = () => process.getBuiltinModule('node:zlib')
const crypto = () => process.getBuiltinModule('node:crypto')

export type GitObjectType = 'commit' | 'tree' | 'blob' | 'tag'

export interface GitObject {
  type: GitObjectType
  data: Buffer
}

/** An object that is not in the store, or cannot be read as what it claims to be. */
export class GitObjectError extends CodedError {
  constructor(message: string) {
    super('not_found', message)
    this.name = 'GitObjectError'
  }
}

/** The largest object read (a file that big is not restored from a snapshot). */
const MAX_OBJECT_BYTES = 256 * 1024 * 1024
/** Deltas on deltas: git's own default depth is 50, its aggressive one 250. */
const MAX_DELTA_CHAIN = 1000
/** Files listed from one tree, and folders deep. */
const MAX_TREE_FILES = 1_000_000
const MAX_TREE_DEPTH = 256
/** Object stores followed through alternates (each may name more). */
const MAX_STORES = 8

const SHA = /^[0-9a-f]{40}$/
const TYPES: Record<number, GitObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' }
const OFS_DELTA = 6
const REF_DELTA = 7

export function isSha(name: string): boolean {
  return SHA.test(name)
}

/** One pack: its index (looked into by reads, never loaded whole) and its data file. */
interface Pack {
  idx: string
  pack: string
  /** The index's fan-out table: objects whose first byte is <= i. */
  fanout: Uint32Array
  count: number
}

export class GitObjects {
  private stores: string[] | null = null
  private packs: Pack[] | null = null

  /** `gitDir`: a repository's git folder (a `.git`, or a bare repository). */
  constructor(readonly gitDir: string) {}

  /** The object named `sha`, its name checked against what was read. */
  read(sha: string): GitObject {
    if (!isSha(sha)) throw new GitObjectError(`${JSON.stringify(sha)} is no object name`)
    const object = this.loose(sha) ?? this.packed(sha)
    if (object === null) throw new GitObjectError(`object ${sha} is not in ${this.gitDir}`)
    const header = Buffer.from(`${object.type} ${object.data.length}\0`)
    const named = crypto().createHash('sha1').update(header).update(object.data).digest('hex')
    if (named !== sha) throw new GitObjectError(`object ${sha} in ${this.gitDir} is damaged`)
    return object
  }

  /** The tree a commit (or a tree) names. */
  treeOf(sha: string): string {
    const object = this.read(sha)
    if (object.type === 'tree') return sha
    if (object.type !== 'commit') throw new GitObjectError(`${sha} is a ${object.type}, no commit`)
    const tree = /^tree ([0-9a-f]{40})$/m.exec(object.data.toString('latin1'))?.[1]
    if (tree === undefined) throw new GitObjectError(`commit ${sha} names no tree`)
    return tree
  }

  /** Every file of a tree (or a commit's), by its path (`/` between folders) → its blob. */
  files(sha: string): Map<string, string> {
    const out = new Map<string, string>()
    const walk = (tree: string, prefix: string, depth: number) => {
      if (depth > MAX_TREE_DEPTH) throw new GitObjectError(`tree ${sha} is nested too deep`)
      for (const entry of this.entries(tree)) {
        const path = `${prefix}${entry.name}`
        if (entry.mode === '40000') walk(entry.sha, `${path}/`, depth + 1)
        // Regular and executable files; links and submodules are no file content to restore.
        else if (entry.mode === '100644' || entry.mode === '100755') {
          if (out.size >= MAX_TREE_FILES)
            throw new GitObjectError(`tree ${sha} holds too many files`)
          out.set(path, entry.sha)
        }
      }
    }
    walk(this.treeOf(sha), '', 0)
    return out
  }

  /** The blob at `path` in a tree (or a commit's), or null when the tree holds no file there. */
  blobAt(sha: string, path: string): string | null {
    let tree = this.treeOf(sha)
    const parts = path.split('/')
    for (const [i, part] of parts.entries()) {
      const entry = this.entries(tree).find((e) => e.name === part)
      if (entry === undefined) return null
      if (i === parts.length - 1) {
        return entry.mode === '100644' || entry.mode === '100755' ? entry.sha : null
      }
      if (entry.mode !== '40000') return null
      tree = entry.sha
    }
    return null
  }

  /** A blob's content. */
  blob(sha: string): Buffer {
    const object = this.read(sha)
    if (object.type !== 'blob') throw new GitObjectError(`${sha} is a ${object.type}, no file`)
    return object.data
  }

  private entries(tree: string): { mode: string; name: string; sha: string }[] {
    const object = this.read(tree)
    if (object.type !== 'tree') throw new GitObjectError(`${tree} is a ${object.type}, no tree`)
    const data = object.data
    const out: { mode: string; name: string; sha: string }[] = []
    for (let at = 0; at < data.length;) {
      const space = data.indexOf(0x20, at)
      const nul = data.indexOf(0, space + 1)
      if (space === -1 || nul === -1 || nul + 21 > data.length)
        throw new GitObjectError(`tree ${tree} is damaged`)
      out.push({
        mode: data.toString('latin1', at, space),
        name: data.toString('utf8', space + 1, nul),
        sha: data.toString('hex', nul + 1, nul + 21)
      })
      at = nul + 21
    }
    return out
  }

  // ---- where objects are ------------------------------------------------------------------------

  /** The object folders: the repository's, then those its alternates name (bounded, no loop). */
  private objectStores(): string[] {
    if (this.stores !== null) return this.stores
    const stores: string[] = []
    const add = (dir: string) => {
      const real = resolve(dir)
      if (stores.includes(real) || stores.length >= MAX_STORES) return
      stores.push(real)
      let text: string
      try {
        const file = readRegularFile(join(real, 'info', 'alternates'))
        if (file.kind !== 'file') return
        text = file.content.toString('utf8')
      } catch {
        return
      }
      for (const line of text.split('\n')) {
        const alternate = line.trim()
        if (alternate === '' || alternate.startsWith('#')) continue
        add(isAbsolute(alternate) ? alternate : join(real, alternate))
      }
    }
    add(join(this.gitDir, 'objects'))
    this.stores = stores
    return stores
  }

  private loose(sha: string): GitObject | null {
    for (const store of this.objectStores()) {
      let file
      try {
        file = readRegularFile(join(store, sha.slice(0, 2), sha.slice(2)))
      } catch {
        continue
      }
      if (file.kind !== 'file') continue
      const raw = inflated(file.content, MAX_OBJECT_BYTES + 64, sha)
      const nul = raw.indexOf(0)
      const header = nul === -1 ? '' : raw.toString('latin1', 0, nul)
      const [type, size] = header.split(' ')
      const known = Object.values(TYPES).find((t) => t === type)
      if (known === undefined || String(raw.length - nul - 1) !== size)
        throw new GitObjectError(`object ${sha} is damaged`)
      return { type: known, data: raw.subarray(nul + 1) }
    }
    return null
  }

  private packed(sha: string): GitObject | null {
    for (const pack of this.packList()) {
      const offset = findInPack(pack, sha)
      if (offset !== null) return readPacked(this, pack, offset, 0)
    }
    return null
  }

  private packList(): Pack[] {
    if (this.packs !== null) return this.packs
    const packs: Pack[] = []
    for (const store of this.objectStores()) {
      let names: string[]
      try {
        names = readdirSync(join(store, 'pack'))
      } catch {
        continue
      }
      for (const name of names.filter((n) => n.endsWith('.idx')).sort()) {
        const idx = join(store, 'pack', name)
        try {
          const head = readRegularFileAt(idx, 0, 8 + 256 * 4)
          // Index version 2: \377tOc, version, then the 256-entry fan-out.
          if (
            head.length < 8 + 1024 ||
            head.readUInt32BE(0) !== 0xff744f63 ||
            head.readUInt32BE(4) !== 2
          )
            continue
          const fanout = new Uint32Array(256)
          for (let i = 0; i < 256; i++) fanout[i] = head.readUInt32BE(8 + i * 4)
          packs.push({
            idx,
            pack: `${idx.slice(0, -'.idx'.length)}.pack`,
            fanout,
            count: fanout[255] ?? 0
          })
        } catch {
          // An index that cannot be read is one place fewer to look.
        }
      }
    }
    this.packs = packs
    return packs
  }

  /** A packed object by name, from any pack (a reference delta's base may be in another). */
  packedByName(sha: string, depth: number): GitObject {
    for (const pack of this.packList()) {
      const offset = findInPack(pack, sha)
      if (offset !== null) return readPacked(this, pack, offset, depth)
    }
    const loose = this.loose(sha)
    if (loose === null)
      throw new GitObjectError(`the base ${sha} of a delta is not in ${this.gitDir}`)
    return loose
  }
}

/** The object's offset in the pack, by a binary search of its index (reads, never a load). */
function findInPack(pack: Pack, sha: string): number | null {
  const first = Number.parseInt(sha.slice(0, 2), 16)
  let low = first === 0 ? 0 : (pack.fanout[first - 1] ?? 0)
  let high = (pack.fanout[first] ?? 0) - 1
  const names = 8 + 1024
  const wanted = Buffer.from(sha, 'hex')
  while (low <= high) {
    const mid = (low + high) >>> 1
    const name = readRegularFileAt(pack.idx, names + mid * 20, 20)
    const order = name.compare(wanted)
    if (order === 0) {
      const offsets = names + pack.count * 24
      const small = readRegularFileAt(pack.idx, offsets + mid * 4, 4).readUInt32BE(0)
      if ((small & 0x80000000) === 0) return small
      const large = offsets + pack.count * 4 + (small & 0x7fffffff) * 8
      const value = readRegularFileAt(pack.idx, large, 8).readBigUInt64BE(0)
      return Number(value)
    }
    if (order < 0) low = mid + 1
    else high = mid - 1
  }
  return null
}

/** The object at `offset` of a pack, its deltas applied (at most MAX_DELTA_CHAIN deep). */
function readPacked(store: GitObjects, pack: Pack, offset: number, depth: number): GitObject {
  if (depth > MAX_DELTA_CHAIN) throw new GitObjectError(`a delta chain in ${pack.pack} is too long`)
  const head = readRegularFileAt(pack.pack, offset, 32)
  let at = 0
  let byte = head[at++] ?? 0
  const kind = (byte >> 4) & 7
  let size = byte & 15
  let shift = 4
  while ((byte & 0x80) !== 0) {
    byte = head[at++] ?? 0
    size += (byte & 0x7f) * 2 ** shift
    shift += 7
  }
  if (size > MAX_OBJECT_BYTES)
    throw new GitObjectError(`an object in ${pack.pack} is too big to read`)
  if (kind === OFS_DELTA || kind === REF_DELTA) {
    let base: GitObject
    if (kind === OFS_DELTA) {
      byte = head[at++] ?? 0
      let back = byte & 0x7f
      while ((byte & 0x80) !== 0) {
        byte = head[at++] ?? 0
        back = (back + 1) * 128 + (byte & 0x7f)
      }
      if (back <= 0 || back > offset) throw new GitObjectError(`a delta in ${pack.pack} is damaged`)
      base = readPacked(store, pack, offset - back, depth + 1)
    } else {
      const name = head.toString('hex', at, at + 20)
      at += 20
      base = store.packedByName(name, depth + 1)
    }
    const delta = inflatedAt(pack.pack, offset + at, size)
    return { type: base.type, data: applyDelta(base.data, delta, pack.pack) }
  }
  const type = TYPES[kind]
  if (type === undefined) throw new GitObjectError(`an object in ${pack.pack} has an unknown type`)
  return { type, data: inflatedAt(pack.pack, offset + at, size) }
}

/** `size` bytes inflated from the deflate stream at `offset`, reading more of it as needed. */
function inflatedAt(file: string, offset: number, size: number): Buffer {
  for (let window = Math.min(size + 64, 1 << 20); ; window *= 2) {
    const input = readRegularFileAt(file, offset, window)
    let out: Buffer
    try {
      out = zlib().inflateSync(input, {
        finishFlush: zlib().constants.Z_SYNC_FLUSH,
        maxOutputLength: Math.max(size, 1)
      })
    } catch {
      throw new GitObjectError(`an object in ${file} is damaged`)
    }
    if (out.length >= size) return out.subarray(0, size)
    // The stream goes on past what was read; a file that ends first is cut short.
    if (input.length < window) throw new GitObjectError(`an object in ${file} is cut short`)
  }
}

function inflated(data: Buffer, max: number, sha: string): Buffer {
  try {
    return zlib().inflateSync(data, { maxOutputLength: max })
  } catch {
    throw new GitObjectError(`object ${sha} is damaged or too big to read`)
  }
}

/** git's delta: the sizes, then copies from the base and literal inserts. */
function applyDelta(base: Buffer, delta: Buffer, where: string): Buffer {
  let at = 0
  const varint = () => {
    let value = 0
    let shift = 0
    let byte: number
    do {
      byte = delta[at++] ?? 0
      value += (byte & 0x7f) * 2 ** shift
      shift += 7
    } while ((byte & 0x80) !== 0 && at < delta.length)
    return value
  }
  const damaged = () => new GitObjectError(`a delta in ${where} is damaged`)
  if (varint() !== base.length) throw damaged()
  const size = varint()
  if (size > MAX_OBJECT_BYTES) throw damaged()
  const out = Buffer.alloc(size)
  let written = 0
  while (at < delta.length) {
    const op = delta[at++] ?? 0
    if ((op & 0x80) !== 0) {
      let from = 0
      let length = 0
      for (let i = 0; i < 4; i++)
        if ((op & (1 << i)) !== 0) from += (delta[at++] ?? 0) * 2 ** (8 * i)
      for (let i = 0; i < 3; i++)
        if ((op & (0x10 << i)) !== 0) length += (delta[at++] ?? 0) * 2 ** (8 * i)
      if (length === 0) length = 0x10000
      if (from + length > base.length || written + length > size) throw damaged()
      base.copy(out, written, from, from + length)
      written += length
    } else if (op !== 0) {
      if (at + op > delta.length || written + op > size) throw damaged()
      delta.copy(out, written, at, at + op)
      at += op
      written += op
    } else throw damaged()
  }
  if (written !== size) throw damaged()
  return out
}
