// The compare table of one start's runs: per run its state, files changed, lines added and
// removed (start node → the run's end), tokens, time, and its check. Read from each run's own
// log, whether it is joined yet or not (a crash may have ended it), and the session's blobs.
import { lineHunks } from '../rewind/line-diff'
import { filesAsNodeLeftThem } from '../rewind/node-files'
import { usageTokens } from '../agent/summary/tokens'
import type { BlobStore } from '../files/blob-store'
import { SessionStore } from '../session/store'
import type { CheckResult, RunManifest, RunState } from './run-manifest'

/** Past this a file's lines are not counted (its change still is). */
const MAX_COUNTED_BYTES = 2_000_000

export interface RunRow {
  id: string
  state: RunState
  prompt: string
  files: string[]
  linesAdded: number
  linesRemoved: number
  /** What the model's answers say they cost; null: no answer said (the scripted model). */
  tokens: number | null
  /** Milliseconds from start to end (to now for one still running). */
  ms: number
  check: CheckResult | null
  error: string | null
  workspace: string | null
}

export function runRow(run: RunManifest, blobs: BlobStore, now = Date.now()): RunRow {
  const ended = run.endedAt === null ? now : Date.parse(run.endedAt)
  const row: RunRow = {
    id: run.id,
    state: run.state,
    prompt: run.prompt,
    files: [],
    linesAdded: 0,
    linesRemoved: 0,
    tokens: null,
    ms: Math.max(0, ended - Date.parse(run.startedAt)),
    check: run.check,
    error: run.error,
    workspace: run.removed === null ? run.workspace : null
  }
  if (run.runSession === null) return row
  let log: SessionStore
  try {
    log = SessionStore.open(run.runSession, { readOnly: true, reason: 'read for the runs table' })
  } catch {
    return row
  }
  try {
    const tree = log.tree()
    const before = filesAsNodeLeftThem(tree, run.startUuid)
    const after = filesAsNodeLeftThem(tree, log.leafUuid)
    for (const [path, file] of after) {
      const was = before.get(path)?.hash ?? null
      if (file.hash === was) continue
      row.files.push(path)
      const [added, removed] = countLines(blobs, was, file.hash)
      row.linesAdded += added
      row.linesRemoved += removed
    }
    for (const record of tree.records.slice(run.prefixRecords)) {
      const r = record as { type?: unknown; message?: { usage?: unknown } }
      if (r.type !== 'assistant') continue
      const tokens = usageTokens(r.message?.usage)
      if (tokens !== null) row.tokens = (row.tokens ?? 0) + tokens
    }
  } finally {
    log.close()
  }
  row.files.sort()
  return row
}

function countLines(blobs: BlobStore, from: string | null, to: string | null): [number, number] {
  const text = (hash: string | null) => {
    if (hash === null) return ''
    const content = blobs.read(hash)
    return content.length > MAX_COUNTED_BYTES ? null : content.toString('utf8')
  }
  try {
    const a = text(from)
    const b = text(to)
    if (a === null || b === null) return [0, 0]
    let added = 0
    let removed = 0
    for (const hunk of lineHunks(a, b, 0)) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) added++
        else if (line.startsWith('-')) removed++
      }
    }
    return [added, removed]
  } catch {
    // A backup gone (retention): the file is listed, its lines not counted.
    return [0, 0]
  }
}
