// Reading another tool's SQLite database, read-only, without SQLite: OpenCode keeps its sessions in
// one (`<data>/opencode/opencode.db`, in WAL mode while it runs). Opening it with a SQLite library
// would take its locks and, in WAL mode, write its `-shm` index, and a native addon has to build
// on every machine; the file format is small and documented (sqlite.org/fileformat.html), and a
// reader of tables needs little of it: the header, table b-trees and their overflow pages, the
// record format, the schema table, and the write-ahead log a running program has not yet copied
// back (its frames up to the last valid commit, checked by their salts and checksums, as SQLite
// checks them). Nothing is written or locked.
//
// A database written while it is read can be caught between two states: the read is made again
// (a few times) when the files' sizes or times moved meanwhile; what is read is bounded by the
// database's page count (a page visited twice, a cycle a damaged file makes, stops the scan); a
// damaged file throws SqliteError, saying what. Every file is opened through
// os/read-regular-file.ts: a FIFO where the database is expected is refused, never waited on.
import { closeSync, fstatSync } from 'node:fs'
import { CodedError } from '../../../shared/coded-error'
import { openRegularFile, readAt } from '../../os/read-regular-file'

/** The global TextDecoder (node:util's: importing that module would load its lazy parts too). */
type Decoder = InstanceType<typeof TextDecoder>

export class SqliteError extends CodedError {
  constructor(message: string) {
    super('unavailable', message)
    this.name = 'SqliteError'
  }
}

export type SqliteValue = null | number | bigint | string | Buffer

export type SqliteRow = Record<string, SqliteValue>

/** Reads made again when the files moved while they were read. */
const ATTEMPTS = 4
/** The most rows a scan returns (a table of more is not a session store). */
const MAX_ROWS = 10_000_000

const HEADER = 'SQLite format 3\0'

interface Wal {
  /** The latest committed frame of each page: its offset in the -wal file. */
  pages: Map<number, number>
  /** The database's size in pages after the last commit in the log. */
  size: number
}

/**
 * The rows of `tables` of the database at `path` (with its `-wal`), read at one moment: each
 * table's rows in b-tree order (by rowid), each row by column name. A table the database does not
 * hold gives no rows.
 */
export function readTables(path: string, tables: readonly string[]): Map<string, SqliteRow[]> {
  for (let attempt = 1; ; attempt++) {
    const before = stampsOf(path)
    let read: Map<string, SqliteRow[]>
    try {
      read = new Database(path).tables(tables)
    } catch (error) {
      if (attempt < ATTEMPTS && stampsOf(path) !== before) continue
      throw error
    }
    if (stampsOf(path) === before || attempt >= ATTEMPTS) return read
  }
}

/** What says the database and its log have not moved: their sizes and change times. */
export function stampsOf(path: string): string {
  return [path, `${path}-wal`]
    .map((file) => {
      try {
        const { fd } = openRegularFile(file)
        try {
          const stats = fstatSync(fd)
          return `${stats.size}:${stats.mtimeMs}:${stats.ino}`
        } finally {
          closeSync(fd)
        }
      } catch {
        return '-'
      }
    })
    .join('|')
}

class Database {
  private readonly fd: number
  private readonly walFd: number | null
  private readonly pageSize: number
  private readonly usable: number
  private readonly pageCount: number
  private readonly wal: Wal | null
  private readonly decoder: Decoder

  constructor(readonly path: string) {
    this.fd = openRegularFile(path).fd
    let walFd: number | null = null
    try {
      const header = readAt(this.fd, 0, 100)
      if (header.length < 100 || header.toString('latin1', 0, 16) !== HEADER)
        throw new SqliteError(`${path} is no SQLite database`)
      const size = header.readUInt16BE(16)
      this.pageSize = size === 1 ? 65536 : size
      if (this.pageSize < 512 || (this.pageSize & (this.pageSize - 1)) !== 0)
        throw new SqliteError(`${path} names no valid page size`)
      this.usable = this.pageSize - (header[20] ?? 0)
      const encoding = header.readUInt32BE(56)
      this.decoder = new TextDecoder(
        encoding === 2 ? 'utf-16le' : encoding === 3 ? 'utf-16be' : 'utf-8'
      )
      const fileSize = fstatSync(this.fd).size
      try {
        walFd = openRegularFile(`${path}-wal`).fd
      } catch {
        walFd = null
      }
      this.walFd = walFd
      this.wal = walFd === null ? null : this.readWal(walFd)
      // In-header size when valid (its change counter matches), else the file's.
      const inHeader = header.readUInt32BE(28)
      const valid = header.readUInt32BE(24) === header.readUInt32BE(92) && inHeader > 0
      const counted = valid ? inHeader : Math.floor(fileSize / this.pageSize)
      this.pageCount = this.wal !== null && this.wal.size > 0 ? this.wal.size : counted
    } catch (error) {
      closeSync(this.fd)
      if (walFd !== null) closeSync(walFd)
      throw error
    }
  }

  tables(names: readonly string[]): Map<string, SqliteRow[]> {
    try {
      const schema = this.scan(1, ['type', 'name', 'tbl_name', 'rootpage', 'sql'])
      const out = new Map<string, SqliteRow[]>()
      for (const name of names) {
        const entry = schema.find((row) => row.type === 'table' && row.name === name)
        if (entry === undefined) {
          out.set(name, [])
          continue
        }
        const sql = typeof entry.sql === 'string' ? entry.sql : ''
        if (/\)\s*without\s+rowid\s*;?\s*$/i.test(sql))
          throw new SqliteError(`table ${name} of ${this.path} has no rowid: it is not read`)
        const { columns, rowidAlias } = columnsOf(sql)
        const root = Number(entry.rootpage)
        out.set(name, this.scan(root, columns, rowidAlias))
      }
      return out
    } finally {
      closeSync(this.fd)
      if (this.walFd !== null) closeSync(this.walFd)
    }
  }

  /** Every row of the table b-tree rooted at `root`, depth first (rowid order). */
  private scan(root: number, columns: string[], rowidAlias: string | null = null): SqliteRow[] {
    const rows: SqliteRow[] = []
    const seen = new Set<number>()
    const pending = [root]
    while (pending.length > 0) {
      const number = pending.pop() as number
      if (seen.has(number) || number < 1 || number > this.pageCount)
        throw new SqliteError(`${this.path}: a table's pages loop or leave the file`)
      seen.add(number)
      const page = this.page(number)
      const at = number === 1 ? 100 : 0
      const kind = page[at]
      const cells = page.readUInt16BE(at + 3)
      if (kind === 0x05) {
        // Interior: children left to right, then the rightmost; pushed so the leftmost comes first.
        const children = [page.readUInt32BE(at + 8)]
        for (let i = cells - 1; i >= 0; i--) {
          const cell = page.readUInt16BE(at + 12 + i * 2)
          children.push(page.readUInt32BE(cell))
        }
        pending.push(...children)
      } else if (kind === 0x0d) {
        for (let i = 0; i < cells; i++) {
          const cell = page.readUInt16BE(at + 8 + i * 2)
          rows.push(this.row(page, cell, columns, rowidAlias))
          if (rows.length > MAX_ROWS)
            throw new SqliteError(`${this.path}: a table holds too many rows`)
        }
      } else throw new SqliteError(`${this.path}: page ${number} is no table page`)
    }
    return rows
  }

  /** A table leaf cell's record, by column. */
  private row(page: Buffer, cell: number, columns: string[], rowidAlias: string | null): SqliteRow {
    let at = cell
    const [payloadSize, afterSize] = varint(page, at)
    at = afterSize
    const [rowid, afterRowid] = varint(page, at)
    at = afterRowid
    const payload = this.payload(page, at, Number(payloadSize))
    const values = decodeRecord(payload, this.decoder, this.path)
    const row: SqliteRow = {}
    columns.forEach((name, i) => {
      row[name] = name === rowidAlias ? toNumber(rowid) : (values[i] ?? null)
    })
    return row
  }

  /** A cell's payload, followed through its overflow pages. */
  private payload(page: Buffer, at: number, size: number): Buffer {
    const u = this.usable
    const x = u - 35
    if (size <= x) return page.subarray(at, at + size)
    const m = Math.floor(((u - 12) * 32) / 255) - 23
    const k = m + ((size - m) % (u - 4))
    const local = k <= x ? k : m
    const out = Buffer.alloc(size)
    page.copy(out, 0, at, at + local)
    let written = local
    let next = page.readUInt32BE(at + local)
    const seen = new Set<number>()
    while (written < size) {
      if (next < 1 || next > this.pageCount || seen.has(next))
        throw new SqliteError(`${this.path}: an overflow chain is damaged`)
      seen.add(next)
      const overflow = this.page(next)
      const take = Math.min(size - written, u - 4)
      overflow.copy(out, written, 4, 4 + take)
      written += take
      next = overflow.readUInt32BE(0)
    }
    return out
  }

  private page(number: number): Buffer {
    const frame = this.wal?.pages.get(number)
    if (frame !== undefined && this.walFd !== null) {
      return readAt(this.walFd, frame + 24, this.pageSize)
    }
    const page = readAt(this.fd, (number - 1) * this.pageSize, this.pageSize)
    if (page.length < this.pageSize)
      throw new SqliteError(`${this.path}: page ${number} is cut short`)
    return page
  }

  /** The log's committed frames: salts equal to its header's, checksums chained, up to the last commit. */
  private readWal(fd: number): Wal | null {
    const header = readAt(fd, 0, 32)
    if (header.length < 32) return null
    const magic = header.readUInt32BE(0)
    if (magic !== 0x377f0682 && magic !== 0x377f0683) return null
    const bigEndian = (magic & 1) === 1
    if (header.readUInt32BE(8) !== this.pageSize) return null
    let sums = checksum(header.subarray(0, 24), bigEndian, [0, 0])
    if (sums[0] !== header.readUInt32BE(24) || sums[1] !== header.readUInt32BE(28)) return null
    const salt1 = header.readUInt32BE(16)
    const salt2 = header.readUInt32BE(20)
    const pages = new Map<number, number>()
    const pending = new Map<number, number>()
    let size = 0
    const frameSize = 24 + this.pageSize
    const fileSize = fstatSync(fd).size
    for (let offset = 32; offset + frameSize <= fileSize; offset += frameSize) {
      const frame = readAt(fd, offset, frameSize)
      if (frame.length < frameSize) break
      if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break
      sums = checksum(frame.subarray(0, 8), bigEndian, sums)
      sums = checksum(frame.subarray(24), bigEndian, sums)
      if (sums[0] !== frame.readUInt32BE(16) || sums[1] !== frame.readUInt32BE(20)) break
      pending.set(frame.readUInt32BE(0), offset)
      const committed = frame.readUInt32BE(4)
      if (committed !== 0) {
        for (const [page, at] of pending) pages.set(page, at)
        pending.clear()
        size = committed
      }
    }
    return { pages, size }
  }
}

/** SQLite's WAL checksum over 8-byte words, carried on from `sums`. */
function checksum(data: Buffer, bigEndian: boolean, sums: [number, number]): [number, number] {
  let [s0, s1] = sums
  for (let i = 0; i + 8 <= data.length; i += 8) {
    const a = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i)
    const b = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4)
    s0 = (s0 + a + s1) >>> 0
    s1 = (s1 + b + s0) >>> 0
  }
  return [s0, s1]
}

/** A SQLite varint at `at`: its value and where it ends. */
function varint(data: Buffer, at: number): [bigint, number] {
  let value = 0n
  for (let i = 0; i < 9; i++) {
    const byte = data[at + i]
    if (byte === undefined) throw new SqliteError('a record is cut short')
    if (i === 8) return [(value << 8n) | BigInt(byte), at + 9]
    value = (value << 7n) | BigInt(byte & 0x7f)
    if ((byte & 0x80) === 0) return [value, at + i + 1]
  }
  return [value, at + 9]
}

function toNumber(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value
}

/** A record's values, by its header's serial types. */
function decodeRecord(record: Buffer, decoder: Decoder, where: string): SqliteValue[] {
  const [headerSize, afterHeaderSize] = varint(record, 0)
  const end = Number(headerSize)
  if (end > record.length) throw new SqliteError(`${where}: a record is damaged`)
  const types: number[] = []
  for (let at = afterHeaderSize; at < end;) {
    const [type, next] = varint(record, at)
    types.push(Number(type))
    at = next
  }
  const values: SqliteValue[] = []
  let at = end
  for (const type of types) {
    const size = serialSize(type)
    if (at + size > record.length) throw new SqliteError(`${where}: a record is damaged`)
    values.push(valueOf(record, at, type, size, decoder))
    at += size
  }
  return values
}

function serialSize(type: number): number {
  if (type <= 4) return type
  if (type === 5) return 6
  if (type === 6 || type === 7) return 8
  if (type < 12) return 0
  return Math.floor((type - (type % 2 === 0 ? 12 : 13)) / 2)
}

function valueOf(
  record: Buffer,
  at: number,
  type: number,
  size: number,
  decoder: Decoder
): SqliteValue {
  switch (type) {
    case 0:
      return null
    case 8:
      return 0
    case 9:
      return 1
    case 7:
      return record.readDoubleBE(at)
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6: {
      let value = BigInt.asIntN(
        size * 8,
        BigInt(`0x${record.toString('hex', at, at + size) || '0'}`)
      )
      if (size === 0) value = 0n
      return toNumber(value)
    }
    default:
      return type % 2 === 0
        ? Buffer.from(record.subarray(at, at + size))
        : decoder.decode(record.subarray(at, at + size))
  }
}

/**
 * A table's column names from its CREATE TABLE statement, in order, and the one that is an alias
 * of the rowid (`INTEGER PRIMARY KEY`), whose value the record leaves null.
 */
export function columnsOf(sql: string): { columns: string[]; rowidAlias: string | null } {
  const open = sql.indexOf('(')
  const close = sql.lastIndexOf(')')
  if (open === -1 || close <= open) throw new SqliteError('a table of the database has no columns')
  const body = sql.slice(open + 1, close)
  const parts: string[] = []
  let depth = 0
  let quote: string | null = null
  let start = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string
    if (quote !== null) {
      if (c === quote) quote = null
    } else if (c === '"' || c === "'" || c === '`') quote = c
    else if (c === '[') quote = ']'
    else if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i))
      start = i + 1
    }
  }
  parts.push(body.slice(start))
  const columns: string[] = []
  let rowidAlias: string | null = null
  for (const part of parts) {
    const item = part.trim()
    if (/^(constraint|primary\s+key|unique|check|foreign\s+key)\b/i.test(item)) continue
    const name = /^(?:"((?:[^"]|"")*)"|`([^`]*)`|\[([^\]]*)\]|'([^']*)'|(\S+))/.exec(item)
    const column =
      name?.[1]?.replace(/""/g, '"') ?? name?.[2] ?? name?.[3] ?? name?.[4] ?? name?.[5]
    if (column === undefined) continue
    columns.push(column)
    const rest = item.slice(name?.[0].length ?? 0)
    if (/^\s+integer\s+primary\s+key\b/i.test(rest) && !/\bdesc\b/i.test(rest)) rowidAlias = column
  }
  return { columns, rowidAlias }
}
