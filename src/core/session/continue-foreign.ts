// Continue in Rewind Studio: a new session of ours whose records are the path to a node of a
// foreign session (Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode), converted to our format, so the agent carries the
// conversation on. The foreign file is only read; the new session's header names where it came
// from (`continuedFrom`: file, format, session id, node). Files are not touched.
//
// What the model sees must be what it saw in the other tool, so the path is cut as that tool cut
// its context:
//   1. the records from the root to the node (the tree's path: a compaction hangs from the
//      conversation it summarised, so the path goes through it);
//   2. from the last compaction on that path: the messages it kept that the tool sends before its
//      summary (Codex CLI's replacement history: the prompts it kept), its summary (a user
//      message, as the tool sent it; Gemini CLI's model reply to it after), then the messages it
//      kept verbatim after it (Claude Code's preservedSegment, pi's entries from
//      firstKeptEntryId, the tail Gemini CLI kept), then what follows the summary;
//   3. each record written through the store: user and assistant messages with their blocks as
//      they are (Claude Code's one-record-per-block messages become consecutive records, which
//      the context builder merges back into one message per turn of the API, tool calls and
//      results paired), branch summaries and custom messages as ours. Records the tool did not
//      send the model (progress, attachments, sub-agent transcripts) are not in the path; a note
//      a reader made of a message the tool sent (details.sentAs) is that message again;
//   4. whole or not at all: the file appears under its name once every record is in it and
//      durable (SessionStore.create's `fill`), so an import killed part way leaves no session
//      to list or to open with --continue.
import type { Json } from './json'
import { isObject, stringOrNull } from './json'
import { SessionStore } from './store'
import {
  isCompactionRecord,
  isForeignCompactionType,
  type SessionTree,
  type TreeRecord
} from './tree'
import { MessageContent } from '../../shared/messages'

export interface ContinueOrigin {
  file: string
  format: string
  sessionId: string
}

export interface ContinueForeignOptions {
  home: string
  /** The workspace of the new session. */
  cwd: string
  origin: ContinueOrigin
  tree: SessionTree
  /** The record to continue after (its path is copied); null: the foreign session's leaf. */
  at: string | null
}

/** Creates the session (holding its writer lock), whole: the converted path written into it. */
export function continueForeign(options: ContinueForeignOptions): SessionStore {
  const at = options.at ?? options.tree.leafUuid
  const records = contextPath(options.tree, at)
  return SessionStore.create({
    home: options.home,
    cwd: options.cwd,
    continuedFrom: { ...options.origin, nodeUuid: at },
    fill: (store) => {
      for (const record of records) write(store, record)
    }
  })
}

/** The records of the path to `at` that the other tool's model saw (see the module header). */
export function contextPath(tree: SessionTree, at: string | null): TreeRecord[] {
  const path = tree.pathTo(at)
  let cut = -1
  for (let i = path.length - 1; i >= 0 && cut === -1; i--) {
    if (isCompactionRecord(path[i] as TreeRecord)) cut = i
  }
  if (cut === -1) return path
  const compaction = path[cut] as TreeRecord
  const kept = keptOf(compaction)
  const indexOf = (uuid: string | null) =>
    uuid === null ? -1 : path.findIndex((r) => r.uuid === uuid)
  const from = indexOf(kept.from)
  const to = kept.to === null ? cut - 1 : indexOf(kept.to)
  const preserved = from === -1 || to < from || to >= cut ? [] : path.slice(from, to + 1)
  const before = kept.before.flatMap((uuid) => {
    const i = indexOf(uuid)
    return i === -1 || i >= cut ? [] : [path[i] as TreeRecord]
  })
  return [...before, compaction, ...preserved, ...path.slice(cut + 1)]
}

/**
 * What a compaction kept verbatim: the records sent before its summary (`before`: Codex CLI's
 * replacement history, the prompts it kept), and the [from, to] uuids on the path sent after it
 * (Claude Code's preservedSegment, pi's entries from firstKeptEntryId, Gemini CLI's tail).
 */
function keptOf(r: TreeRecord): { before: string[]; from: string | null; to: string | null } {
  if (r.type === 'custom_message') {
    const details = isObject(r.details) ? r.details : {}
    const before = Array.isArray(details.keptBefore)
      ? details.keptBefore.filter((u): u is string => typeof u === 'string')
      : []
    return {
      before,
      from: stringOrNull(details.firstKeptEntryId) ?? stringOrNull(details.keptFrom),
      to: stringOrNull(details.keptTo)
    }
  }
  // The Claude Code reader resolved the preserved segment to drawn records (keptMessages).
  const kept = (r as Json).keptMessages
  return isObject(kept)
    ? { before: [], from: stringOrNull(kept.from), to: stringOrNull(kept.to) }
    : { before: [], from: null, to: null }
}

function write(store: SessionStore, r: TreeRecord): void {
  switch (r.type) {
    case 'user':
      // The turns keep the times they were said (the graph and the inspector show them).
      store.appendMessage(
        { role: 'user', content: r.message.content },
        { ...(r.isMeta === true ? { isMeta: true } : {}), timestamp: r.timestamp }
      )
      return
    case 'assistant':
      store.appendMessage(
        {
          role: 'assistant',
          content: r.message.content,
          ...(r.message.model !== undefined ? { model: r.message.model } : {}),
          ...(r.message.stop_reason !== undefined ? { stop_reason: r.message.stop_reason } : {})
        },
        { timestamp: r.timestamp }
      )
      return
    case 'branch_summary':
      store.appendBranchSummary({
        fromId: store.leafUuid ?? 'root',
        summary: r.summary,
        ...(r.details !== undefined ? { details: r.details } : {})
      })
      return
    case 'custom_message': {
      if (isForeignCompactionType(r.customType)) {
        // The tool sends a compaction's summary as a user message, not as a harness note (Gemini
        // CLI then its model's fixed reply: details.reply).
        store.appendMessage({ role: 'user', content: r.content }, { isMeta: true })
        const reply = isObject(r.details) ? stringOrNull(r.details.reply) : null
        if (reply !== null) {
          store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: reply }] })
        }
        return
      }
      // A note a reader made of a user message the tool sent as it was (Claude Code's command
      // output, its interrupt markers): sent so again.
      const sentAs = sentAsOf(r.details)
      if (sentAs !== null) {
        store.appendMessage(
          { role: 'user', content: sentAs },
          { isMeta: true, timestamp: r.timestamp }
        )
        return
      }
      store.appendCustomMessage({
        customType: r.customType,
        hidden: r.hidden,
        content: r.content,
        ...(r.details !== undefined ? { details: r.details } : {})
      })
    }
  }
}

function sentAsOf(details: unknown): MessageContent | null {
  const sent = isObject(details) ? details.sentAs : undefined
  const parsed = MessageContent.safeParse(sent)
  return sent !== undefined && parsed.success ? parsed.data : null
}
