// Grep's search, in a worker thread (grep.ts runs each call in one). A regular expression can take
// exponential time on one line (`(a+)+$` against "aaaa…b"): run on the main thread it would
// freeze the whole app, Stop and SIGTERM included. Here only this thread is stuck, and the tool
// ends it with worker.terminate() when the call is cancelled or its time is up. So that a search
// stopped early still answers with what it found, matches are posted file by file as they come.
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

/** What grep.ts asks for; `pattern` has been compiled once there already (a bad one is refused). */
export interface GrepJob {
  pattern: string
  /** Where .gitignore rules start (the workspace, or an allowed root). */
  root: string
  /** The folder or file to search. */
  base: string
  baseIsDirectory: boolean
  glob: string | undefined
  /** Workspace root: paths inside it are shown relative to it. */
  cwd: string
  /** Lines to send in all; matches past them are only counted. */
  maxLines: number
}

export type GrepWorkerMessage =
  /** Loaded and about to search: the time limit counts from here, not from the thread's start. */
  | { type: 'started' }
  /** Matches in one file: every one counted, the first lines (up to maxLines in all) shown. */
  | { type: 'file'; path: string; matches: number; lines: string[] }
  | { type: 'done'; skippedLarge: number }

/** Larger files are skipped (and counted in the answer): likely generated or data. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024
const MAX_LINE_CHARS = 500

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

async function search(job: GrepJob, post: (message: GrepWorkerMessage) => void): Promise<void> {
  post({ type: 'started' })
  const regex = new RegExp(job.pattern)
  // ripgrep's --glob: a pattern without a slash matches the file name at any depth.
  // (picomatch's own `basename` option also breaks patterns that have a slash.)
  const inGlob =
    job.glob === undefined
      ? () => true
      : picomatch(job.glob, { dot: true, basename: !job.glob.includes('/') })
  // Never aborted: the tool ends this thread instead.
  const candidates: WalkedFile[] = job.baseIsDirectory
    ? await walkFiles(job.root, job.base, new AbortController().signal)
    : [{ abs: job.base, rel: basename(job.base) }]

  let linesLeft = job.maxLines
  let skippedLarge = 0
  for (const file of candidates) {
    if (!inGlob(file.rel)) continue
    const size = statSync(file.abs, { throwIfNoEntry: false })?.size
    if (size === undefined) continue
    if (size > MAX_FILE_BYTES) {
      skippedLarge += 1
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
    if (matches > 0) post({ type: 'file', path: shown, matches, lines })
  }
  post({ type: 'done', skippedLarge })
}

// One job at a time: grep.ts sends the next only after this one's 'done'.
const port = parentPort
port?.on('message', (job: GrepJob) => void search(job, (message) => port.postMessage(message)))
