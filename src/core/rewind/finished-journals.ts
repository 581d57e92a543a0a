// The journals known to be finished, so recovery (which wants the unfinished ones) reads each
// journal's end once, not at every start: a workspace rewound often keeps hundreds of journals,
// and reading each one's last bytes cost ~0.3 ms apiece once they had left the page cache (111
// ms for 350 at one `cli rewind`). A journal never leaves a finished state (recorded, rolled
// back: the next action writes a journal of its own), so the list only grows, until retention
// prunes the journals it names.
//
// One file, `<restores>/finished`: an id a line, rewritten whole (temp file, rename) when a scan
// finds enough more (journal.ts: listJournals). A missing or damaged list costs only the reads again: lines that are not ids are
// ignored. An id is listed only after the folder was fsync'd, so the journal's finished state,
// renamed into place by saveJournal, cannot be lost to a power cut while the list survives.
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_FILE_MODE } from '../os/private-files'

const LIST = 'finished'
const ID = /^[0-9a-f-]{36}$/

/** The ids the list names; none when it is missing or unreadable. */
export async function readFinishedIds(dir: string): Promise<Set<string>> {
  try {
    const text = await fs.readFile(join(dir, LIST), 'latin1')
    return new Set(text.split('\n').filter((line) => ID.test(line)))
  } catch {
    return new Set()
  }
}

/**
 * Lists `ids` as finished, in place of the list before. Best effort: a failure (a full disk, a
 * folder that cannot be fsync'd) leaves the list as it was, which costs reads, never a journal.
 */
export async function saveFinishedIds(dir: string, ids: Iterable<string>): Promise<void> {
  const target = join(dir, LIST)
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`
  try {
    // The journals' renames made durable before any of them is listed.
    const folder = await fs.open(dir, 'r')
    try {
      await folder.sync()
    } finally {
      await folder.close()
    }
    const handle = await fs.open(temp, 'wx', PRIVATE_FILE_MODE)
    try {
      await handle.chmod(PRIVATE_FILE_MODE)
      await handle.writeFile([...ids].map((id) => `${id}\n`).join(''))
    } finally {
      await handle.close()
    }
    await fs.rename(temp, target)
  } catch {
    await fs.rm(temp, { force: true }).catch(() => undefined)
  }
}
