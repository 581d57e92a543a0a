// A restore journal: written before a restore touches the workspace, holding its intent and a
// backup (blob hash) of everything it will overwrite or delete, hand edits included. It makes a
// restore crash-safe (an unfinished one is rolled back or completed at the next start) and
// reversible (undo writes the backups back).
import { randomBytes } from 'node:crypto'
import { closeSync, fstatSync, openSync, promises as fs, readSync } from 'node:fs'
import { join } from 'node:path'
import { uuidv7 } from '../session/uuid-v7'
import * as z from 'zod'
import { RewindMode } from '../../shared/messages'
import { MergeIntent } from '../session/records'
import { listDirIfPresent } from '../os/list-dir'
import { readFinishedIds, saveFinishedIds } from './finished-journals'
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../os/private-files'

export const RestoreOp = z.object({
  /** Workspace-relative, forward slashes. */
  path: z.string(),
  /** The content the file had before the restore (its backup); null = it did not exist. */
  from: z.string().nullable(),
  /** The content the restore gives it; null = the restore deletes it. */
  to: z.string().nullable(),
  /** Permission bits the file had (with `from`): a rollback or an undo gives them back. */
  fromMode: z.number().int().optional(),
  /** Permission bits to give it with `to` (an undo's); absent = an existing file keeps its own. */
  toMode: z.number().int().optional(),
  /**
   * With `from` null: a folder stood at the path and the restore put the file in its place (it
   * was empty, or emptied by the restore), so a rollback or an undo puts the folder back.
   */
  fromFolder: z.boolean().optional(),
  /** With `to` null: the folder the undone restore replaced comes back (see fromFolder). */
  toFolder: z.boolean().optional(),
  /**
   * The restore may write `to` over the file in place (overwriteInPlace): a crash part way
   * through that write leaves it partly written, which a rollback recognizes and puts back.
   */
  inPlace: z.boolean().optional()
})
export type RestoreOp = z.infer<typeof RestoreOp>

export const JournalState = z.enum([
  /** Written, the workspace may be partly changed: the next start rolls it back. */
  'pending',
  /** Every file is done, the session record may be missing: the next start appends it. */
  'applied',
  /** Done and recorded in the session log. */
  'recorded',
  /** Undone by recovery after a crash. */
  'rolled-back'
])
export type JournalState = z.infer<typeof JournalState>

export const RestoreJournal = z.object({
  id: z.string(),
  sessionId: z.string(),
  /** 'summary': Summarize from / up to here, a move of the leaf that writes no file (no ops). */
  kind: z.enum(['rewind', 'switch-branch', 'continue', 'undo', 'redo', 'merge', 'summary']),
  /** The rewind's checkpoint and mode (kind 'rewind'). */
  checkpointUuid: z.string().nullable(),
  mode: RewindMode.nullable(),
  leafBefore: z.string().nullable(),
  leafAfter: z.string().nullable(),
  /** For kind 'undo': the journal it reverses. */
  undoes: z.string().nullable(),
  /** For kind 'redo': the action it does again (the id of that action's first journal). */
  redoes: z.string().optional(),
  /**
   * The folder the restore wrote in (resolved through symlinks): undo and recovery act only
   * there, since a CLI rewind may restore into a copy of the workspace (--cwd). Absent in
   * journals from before it was kept.
   */
  root: z.string().optional(),
  ops: z.array(RestoreOp),
  /**
   * Folders the session made that the restore removes once its files are done, where it leaves
   * them empty (created-folders.ts): all stood when the journal was written; once applied, those
   * it removed. A rollback or an undo makes them again, before its files. Absent in journals
   * from before folders were kept, and in those that remove none.
   */
  removeFolders: z.array(z.string()).optional(),
  /**
   * Folders the restore makes before its files (those its files need, and an undo's: those the
   * restore it reverses removed): all were missing when the journal was written; once applied,
   * those it made. A rollback or an undo removes them again where they are empty.
   */
  makeFolders: z.array(z.string()).optional(),
  /** For kind 'merge': the merge record to append once the files are written (core/merge). */
  merge: MergeIntent.optional(),
  state: JournalState,
  createdAt: z.string()
})
export type RestoreJournal = z.infer<typeof RestoreJournal>

export function newJournalId(): string {
  return uuidv7()
}

/** The folders a restore removes and makes (see RestoreJournal). */
export type FolderMoves = Pick<RestoreJournal, 'removeFolders' | 'makeFolders'>

/** A new journal, pending, for an action of `kind` in the folder `root` (the one builder). */
export function pendingJournal(
  where: { sessionId: string; root: string },
  of: Pick<RestoreJournal, 'checkpointUuid' | 'mode' | 'leafBefore' | 'leafAfter'>,
  kind: RestoreJournal['kind'],
  ops: RestoreOp[],
  folders: FolderMoves = {}
): RestoreJournal {
  const journal: RestoreJournal = {
    id: newJournalId(),
    sessionId: where.sessionId,
    kind,
    checkpointUuid: of.checkpointUuid,
    mode: of.mode,
    leafBefore: of.leafBefore,
    leafAfter: of.leafAfter,
    undoes: null,
    root: where.root,
    ops,
    state: 'pending',
    createdAt: new Date().toISOString()
  }
  return withFolders(journal, folders)
}

/**
 * The journal with these folder lists (each only when not empty: absent means none), and
 * `state` and `createdAt` as its last keys (stateAtEnd).
 */
export function withFolders(journal: RestoreJournal, folders: FolderMoves): RestoreJournal {
  const { removeFolders: _remove, makeFolders: _make, state, createdAt, ...rest } = journal
  const { removeFolders = [], makeFolders = [] } = folders
  return {
    ...rest,
    ...(removeFolders.length > 0 ? { removeFolders } : {}),
    ...(makeFolders.length > 0 ? { makeFolders } : {}),
    state,
    createdAt
  }
}

const ID = /^[0-9a-f-]{36}$/

function journalFile(dir: string, id: string): string {
  if (!ID.test(id)) throw new Error(`Not a restore id: ${JSON.stringify(id)}`)
  return join(dir, `${id}.json`)
}

/** Writes the journal durably (temp file, fsync, rename): it is the crash-recovery record. */
export async function saveJournal(dir: string, journal: RestoreJournal): Promise<void> {
  ensurePrivateDir(dir)
  const target = journalFile(dir, journal.id)
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`
  const handle = await fs.open(temp, 'wx', PRIVATE_FILE_MODE)
  try {
    // Its bits exactly, whatever the umask: the journal names every file the restore touched.
    await handle.chmod(PRIVATE_FILE_MODE)
    await handle.writeFile(JSON.stringify(journal))
    await handle.sync()
  } finally {
    await handle.close()
  }
  await fs.rename(temp, target)
}

export async function loadJournal(dir: string, id: string): Promise<RestoreJournal> {
  const journal = await readJournal(dir, id, () => true)
  if (journal === null) throw new Error(`Restore journal ${id} was not read`)
  return journal
}

/** The journal `id`, or null when `wanted` does not keep it. */
async function readJournal(
  dir: string,
  id: string,
  wanted: JournalFilter
): Promise<RestoreJournal | null> {
  const file = journalFile(dir, id)
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`Restore journal ${id} is gone (pruned by retention?): it cannot be undone`)
    }
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`Restore journal ${file} is damaged: ${(error as Error).message}`)
  }
  if (!wanted(json as Partial<Record<string, unknown>>)) return null
  const parsed = RestoreJournal.safeParse(json)
  if (!parsed.success)
    throw new Error(`Restore journal ${file} is damaged: ${parsed.error.message}`)
  return parsed.data
}

/**
 * Which journals a caller wants, told from their parsed JSON before it is checked against the
 * schema (a journal of a thousand files costs more to check than to parse).
 */
export type JournalFilter = (journal: Partial<Record<string, unknown>>) => boolean

/**
 * Every readable journal in `dir` (that `wanted` keeps), oldest first (ids are uuidv7:
 * time-ordered). A damaged one throws, unless `damaged` is given: then its message goes there
 * and the rest are still read (one bad file must not keep every session of the workspace from
 * opening).
 */
export async function listJournals(
  dir: string,
  damaged?: string[],
  wanted: JournalFilter = () => true,
  /** Only journals in these states: one whose last bytes say another is not read (stateAtEnd). */
  states?: ReadonlySet<JournalState>
): Promise<RestoreJournal[]> {
  const names = await listDirIfPresent(dir)
  // Asked for unfinished ones only (recovery): the journals known finished are not read at all.
  const finished =
    states !== undefined && !FINISHED.some((state) => states.has(state))
      ? await readFinishedIds(dir)
      : null
  const present = new Set<string>()
  let newlyFinished = 0
  const journals: RestoreJournal[] = []
  for (const name of names.sort()) {
    const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : ''
    if (!ID.test(id)) continue
    present.add(id)
    if (finished?.has(id) === true) continue
    try {
      const end = states === undefined ? null : stateAtEnd(journalFile(dir, id))
      if (end !== null && FINISHED.includes(end) && finished !== null) {
        finished.add(id)
        newlyFinished++
      }
      if (end !== null && states?.has(end) === false) continue
      const journal = await readJournal(dir, id, wanted)
      if (journal !== null) journals.push(journal)
    } catch (error) {
      if (damaged === undefined) throw error
      damaged.push((error as Error).message)
    }
  }
  // Listed again once enough more are finished to pay for the folder's fsync that listing takes
  // (each start after a rewind finds its journal finished); pruned ones leave the list then.
  if (finished !== null && newlyFinished >= FINISHED_TO_LIST) {
    await saveFinishedIds(
      dir,
      [...finished].filter((id) => present.has(id))
    )
  }
  return journals
}

/** Finished journals read again at each start before they are listed (see above). */
const FINISHED_TO_LIST = 16

/** States a journal never leaves (see finished-journals.ts). */
const FINISHED: readonly JournalState[] = ['recorded', 'rolled-back']

/**
 * The state a journal's last bytes give, or null when they do not say. saveJournal writes
 * `state` and `createdAt` last (a redo's `redoes` after them), so recovery tells a finished
 * journal, which names every file its restore touched (a thousand-file one is 200 KB), from an
 * unfinished one without reading all of it; anything else is read whole.
 */
function stateAtEnd(file: string): JournalState | null {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const tail = Buffer.alloc(Math.min(size, TAIL_BYTES))
    readSync(fd, tail, 0, tail.length, size - tail.length)
    const state = STATE_AT_END.exec(tail.toString('latin1'))?.[1]
    const parsed = JournalState.safeParse(state)
    return parsed.success ? parsed.data : null
  } finally {
    closeSync(fd)
  }
}

const TAIL_BYTES = 256
const STATE_AT_END = /"state":"([a-z-]+)","createdAt":"[^"\\]*"(?:,"redoes":"[0-9a-f-]*")?\}$/
