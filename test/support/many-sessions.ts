// Many sessions of our format in one workspace of a data home, as the session list's benches and
// tests build them: one generated body of realistic shape (test/session/synthetic.ts) under a
// header of its own per session, each a minute after the one before, named as the store names
// them. Writing thousands through the store would fsync each record.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sessionFileName, sessionsDir } from '../../src/core/session/paths'
import { SESSION_FORMAT_VERSION } from '../../src/core/session/format-version'
import { writeSyntheticSession } from '../session/synthetic'

/** The id of the `i`th session (a uuid of version 7's shape, in the order they were made). */
export const manySessionId = (i: number) =>
  `01900000-0000-7000-8000-${i.toString(16).padStart(12, '0')}`

/** Writes `count` sessions of about `bytesEach` for `cwd` under `home`; returns their folder. */
export function writeManySessions(
  home: string,
  cwd: string,
  count: number,
  bytesEach: number
): string {
  const dir = sessionsDir(home, cwd)
  mkdirSync(dir, { recursive: true })
  const sample = join(dir, 'sample.tmp')
  writeSyntheticSession(sample, bytesEach, 1, { cwd })
  const body = readFileSync(sample, 'utf8')
  rmSync(sample)
  const bodyAfterHeader = body.slice(body.indexOf('\n') + 1)
  const t0 = Date.parse('2026-01-01T00:00:00.000Z')
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(t0 + i * 60_000).toISOString()
    const id = manySessionId(i)
    const header = {
      type: 'session',
      uuid: id,
      parentUuid: null,
      timestamp: createdAt,
      version: SESSION_FORMAT_VERSION,
      sessionId: id,
      cwd
    }
    writeFileSync(
      join(dir, sessionFileName(createdAt, id)),
      `${JSON.stringify(header)}\n${bodyAfterHeader}`
    )
  }
  return dir
}
