// Glob's and Grep's search, in a worker thread (search-run.ts runs each call in one). A pattern
// can take exponential time: a regular expression on one line (`(a+)+$` against "aaaa…b"), or a
// glob on one name (`*a*a*a*a*a*a*a*b` against a long run of "a"). Run on the main thread it
// would freeze the whole app, Stop and SIGTERM included. Here only this thread is stuck, and the
// tool ends it with worker.terminate() when the call is cancelled or its time is up. So that a
// search stopped early still answers with what it found, results are posted as they come.
import { statSync } from 'node:fs'
import { basename } from 'node:path'
import { parentPort } from 'node:worker_threads'
import picomatch from 'picomatch'
import { looksBinary } from '../../files/binary-content'
import { readRegularFile } from '../../os/read-regular-file'
import { describePath } from './paths'
import { splitLines } from './text-files'
import { walkFiles } from './walk'
import type { WalkedFile } from './walk'

/** Where to search, as search-base.ts found it. */
interface SearchPlace {
  /** Where .gitignore rules start (the workspace, or an allowed root). */
  root: string
  /** The folder (or, for Grep, the file) to search. */
  base: string
}

export interface GlobJob extends SearchPlace {
  kind: 'glob'
  pattern: string
}

export interface GrepJob extends SearchPlace {
  kind: 'grep'
  /** Compiled once in grep.ts already: a bad one never gets here. */
  pattern: string
  baseIsDirectory: boolean
  glob: string | undefined
  /** Workspace root: paths inside it are shown relative to it. */
  cwd: string
  /** Lines to send in all; matches past them are only counted. */
  maxLines: number
}

export type SearchJob = GlobJob | GrepJob

export type SearchMessage =
  /** Loaded and about to search: the time limit counts from here, not from the thread's start. */
  | { type: 'started' }
  /** Glob: a file whose path matched, with its modification time. */
  | { type: 'path'; abs: string; mtimeMs: number }
  /** Grep: matches in one file, every one counted, the first lines (maxLines in all) shown. */
  | { type: 'lines'; path: string; matches: number; lines: string[] }
  /** Grep: a file over 10 MB was not searched. */
  | { type: 'skipped-large' }
  | { type: 'done' }

/** Larger files are skipped by Grep (and counted in the answer): likely generated or data. */
const MAX_FILE_BYTES = 10 * 1024 * 1024
const MAX_LINE_CHARS = 500

/** Never aborted: the tool ends this thread instead. */
const NEVER = new AbortController().signal

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line
}

/**
 * The file's bytes; null when it is gone, unreadable, or no regular file (a FIFO or a device
 * named as the path to search is skipped, never waited on).
 */
function readable(abs: string): Buffer | null {
  try {
    const found = readRegularFile(abs)
    return found.kind === 'file' ? found.content : null
  } catch {
    return null
  }
}

async function glob(job: GlobJob, post: (message: SearchMessage) => void): Promise<void> {
  const matches = picomatch(job.pattern, { dot: true })
  for (const file of await walkFiles(job.root, job.base, NEVER)) {
    if (!matches(file.rel)) continue
    const mtimeMs = statSync(file.abs, { throwIfNoEntry: false })?.mtimeMs
    if (mtimeMs !== undefined) post({ type: 'path', abs: file.abs, mtimeMs })
  }
  post({ type: 'done' })
}

async function grep(job: GrepJob, post: (message: SearchMessage) => void): Promise<void> {
  const regex = new RegExp(job.pattern)
  // ripgrep's --glob: a pattern without a slash matches the file name at any depth.
  // (picomatch's own `basename` option also breaks patterns that have a slash.)
  const inGlob =
    job.glob === undefined
      ? () => true
      : picomatch(job.glob, { dot: true, basename: !job.glob.includes('/') })
  const candidates: WalkedFile[] = job.baseIsDirectory
    ? await walkFiles(job.root, job.base, NEVER)
    : [{ abs: job.base, rel: basename(job.base) }]

  let linesLeft = job.maxLines
  for (const file of candidates) {
    if (!inGlob(file.rel)) continue
    const size = statSync(file.abs, { throwIfNoEntry: false })?.size
    if (size === undefined) continue
    if (size > MAX_FILE_BYTES) {
      post({ type: 'skipped-large' })
      continue
    }
    const bytes = readable(file.abs)
    if (bytes === null || looksBinary(bytes)) continue
    const shown = describePath(file.abs, job.cwd)
    const lines: string[] = []
    let matches = 0
    splitLines(bytes.toString('utf8')).forEach((line, i) => {
      if (!regex.test(line)) return
      matches += 1
      if (lines.length < linesLeft) lines.push(`${shown}:${i + 1}:${clip(line)}`)
    })
    linesLeft -= lines.length
    if (matches > 0) post({ type: 'lines', path: shown, matches, lines })
  }
  post({ type: 'done' })
}

// One job at a time: search-run.ts sends the next only after this one's 'done'.
const port = parentPort
port?.on('message', (job: SearchJob) => {
  const post = (message: SearchMessage) => port.postMessage(message)
  post({ type: 'started' })
  void (job.kind === 'glob' ? glob(job, post) : grep(job, post))
})
