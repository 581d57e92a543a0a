// For the security tests of `rewind FILE`: a session file written the way anyone could write one
// (its header names any workspace, its records any path), then placed where a test wants it.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { sha256 } from '../../src/core/files/blob-store'
import { SessionStore } from '../../src/core/session/store'

export interface HandMadeSession {
  /** The file, in a scratch folder of its own. */
  file: string
  /** The record that files the change. */
  recordUuid: string
}

/**
 * A session whose header says `cwd` and whose one prompt "created" `path` with `content`: a
 * rewind to before that prompt deletes the file at `path` if it holds `content`.
 */
export function handMadeSession(cwd: string, path: string, content: string): HandMadeSession {
  const scratch = mkdtempSync(join(tmpdir(), 'rs-hand-made-'))
  // Written through the store (the header and records are exactly the format), in a home of its own.
  const store = SessionStore.create({ home: join(scratch, 'home'), cwd })
  const prompt = store.appendMessage({ role: 'user', content: 'first' }).uuid
  const [record] = store.appendFileChanges([
    {
      checkpointUuid: prompt,
      path,
      before: null,
      after: sha256(Buffer.from(content)),
      source: 'Write'
    }
  ])
  store.close()
  // Under its own name (the session id is in it), so a copy placed in a sessions folder is
  // listed as this session and not as another one.
  const file = join(scratch, basename(store.file))
  copyFileSync(store.file, file)
  return { file, recordUuid: record?.uuid ?? '' }
}

/** Copies `file` into `dir` (created); returns the copy. */
export function placeIn(dir: string, file: string): string {
  mkdirSync(dir, { recursive: true })
  const copy = join(dir, basename(file))
  copyFileSync(file, copy)
  return copy
}
