// The SQLite reader (session/foreign/sqlite-file.ts) against databases SQLite itself wrote
// (test/fixtures/sqlite, README.md there): rows in the write-ahead log a running writer leaves,
// overflow pages, every value type, a rowid alias; OpenCode's own database against its own export;
// and what a damaged or hostile file holds: an error naming it, never a hang or a write.
import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { SqliteError, columnsOf, readTables } from './sqlite-file'
import { fingerprint } from '../../../../test/foreign/cc-fixtures'

const FIXTURES = resolve(import.meta.dirname, '../../../../test/fixtures')

function unpacked(...names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'rs-sqlite-'))
  for (const name of names) {
    const from = name.includes('/') ? join(FIXTURES, name) : join(FIXTURES, 'sqlite', name)
    const to = join(dir, name.split('/').at(-1)?.replace(/\.gz$/, '') ?? '')
    writeFileSync(to, gunzipSync(readFileSync(from)))
  }
  return dir
}

/** The rows make.py wrote (see the fixture's README). */
function expectedRows() {
  const rows = []
  for (let i = 0; i < 300; i++) {
    const id = i + 1
    if (id === 7) continue
    rows.push({
      id,
      name: id === 5 ? 'changed' : `row${i}`,
      big: 'x'.repeat((i * 97) % 12000),
      n: i / 3,
      b: Buffer.alloc(3, i % 256),
      'odd "name"': 'é'.repeat(i % 5)
    })
  }
  return rows
}

describe('the SQLite reader', () => {
  it('reads the rows a running writer left in its write-ahead log', () => {
    const dir = unpacked('wal.db.gz', 'wal.db-wal.gz')
    const before = fingerprint(dir)
    expect(readTables(join(dir, 'wal.db'), ['t']).get('t')).toEqual(expectedRows())
    // Read only: no -shm made, nothing changed.
    expect(fingerprint(dir)).toEqual(before)
  })

  it('reads a database in rollback mode, overflow pages and all', () => {
    const dir = unpacked('rollback.db.gz')
    expect(readTables(join(dir, 'rollback.db'), ['t', 'missing'])).toEqual(
      new Map([
        ['t', expectedRows()],
        ['missing', []]
      ])
    )
  })

  it("reads OpenCode's own database as OpenCode exports it", () => {
    const dir = unpacked('opencode/opencode-data/opencode.db.gz')
    const tables = readTables(join(dir, 'opencode.db'), ['session', 'message', 'part'])
    for (const session of tables.get('session') ?? []) {
      const exported = JSON.parse(
        readFileSync(join(FIXTURES, 'opencode', `export-${String(session.id)}.json`), 'utf8')
      ) as {
        info: { title: string }
        messages: { info: { id: string }; parts: { id: string }[] }[]
      }
      expect(session.title).toBe(exported.info.title)
      const messages = (tables.get('message') ?? []).filter((m) => m.session_id === session.id)
      expect(messages.map((m) => m.id).sort()).toEqual(
        exported.messages.map((m) => m.info.id).sort()
      )
      const parts = (tables.get('part') ?? []).filter((p) => p.session_id === session.id)
      expect(parts.map((p) => p.id).sort()).toEqual(
        exported.messages.flatMap((m) => m.parts.map((p) => p.id)).sort()
      )
    }
  })

  it('leaves out a log frame that is not committed or checks false', () => {
    const dir = unpacked('wal.db.gz', 'wal.db-wal.gz')
    // A frame-sized tail of garbage, as a writer killed mid-frame leaves.
    appendFileSync(join(dir, 'wal.db-wal'), Buffer.alloc(24 + 4096, 0x5a))
    expect(readTables(join(dir, 'wal.db'), ['t']).get('t')).toEqual(expectedRows())
  })

  it('refuses what is no database, a damaged one, and a FIFO, without waiting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-sqlite-bad-'))
    writeFileSync(join(dir, 'text.db'), 'not a database at all, just text '.repeat(10))
    expect(() => readTables(join(dir, 'text.db'), ['t'])).toThrow(SqliteError)
    const damaged = gunzipSync(readFileSync(join(FIXTURES, 'sqlite', 'rollback.db.gz')))
    // Every page but the schema's overwritten: its table's root points at garbage.
    damaged.fill(0xff, 4096)
    writeFileSync(join(dir, 'damaged.db'), damaged)
    expect(() => readTables(join(dir, 'damaged.db'), ['t'])).toThrow(SqliteError)
    execFileSync('mkfifo', [join(dir, 'fifo.db')])
    expect(() => readTables(join(dir, 'fifo.db'), ['t'])).toThrow(/FIFO/)
  })

  it('names the columns of the CREATE TABLE statements SQLite and drizzle write', () => {
    expect(
      columnsOf(
        'CREATE TABLE `session` (`id` text PRIMARY KEY, `cost` real DEFAULT 0 NOT NULL, CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `b`(`c`))'
      )
    ).toEqual({ columns: ['id', 'cost'], rowidAlias: null })
    expect(
      columnsOf('create table t (n integer primary key, "a,b" text, [c] int, check (n > 0))')
    ).toEqual({
      columns: ['n', 'a,b', 'c'],
      rowidAlias: 'n'
    })
  })
})
