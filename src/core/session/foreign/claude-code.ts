// A read-only view of a Claude Code transcript (~/.claude/projects/<cwd>/<sessionId>.jsonl) in our
// tree model, for `inspect`. What is mapped, and why:
// - user / assistant records become ours; progress, system and other records are not drawn but
//   stay links of the chain (ParentResolver), and a compact_boundary hangs from its logical parent.
// - Sub-agent records (isSidechain) are left out of the main tree; a file holding only sidechain
//   records (a sub-agent transcript) is drawn as its own tree.
// - Claude Code writes one record per content block of a streamed message and one per tool result,
//   each tool result under the block that called it, so parallel tool calls look like branches.
//   They are not: the records of one API message (same message.id) and their tool results are
//   chained in file order. A user-typed prompt under the same parent is a real branch and is kept.
// - file-history-snapshot updates and file-history-delta lines become file_change records of the
//   prompt they belong to. Claude Code keeps only the content before the change (its backup name,
//   null for a new file); the content after is not recorded, so `after` is null in this view.
// - isMeta, isCompactSummary and isVisibleInTranscriptOnly user records are not prompts.
import { SESSION_FORMAT_VERSION } from '../records'
import { isObject, stringOrNull, type Json } from '../json'
import type { MappedRecords } from '../load'
import { ParentResolver } from './parents'

export function looksLikeClaudeCode(values: readonly unknown[]): boolean {
  return values
    .slice(0, 50)
    .some(
      (v) =>
        isObject(v) &&
        (v.type === 'file-history-snapshot' ||
          (typeof v.uuid === 'string' && typeof v.sessionId === 'string'))
    )
}

export function fromClaudeCode(
  values: readonly unknown[],
  lines: readonly number[]
): MappedRecords {
  const objects = values.filter(isObject)
  const isMessage = (v: Json) => v.type === 'user' || v.type === 'assistant'
  const onlySidechains = !objects.some((v) => isMessage(v) && v.isSidechain !== true)
  const first = objects.find((v) => typeof v.sessionId === 'string')
  const records: unknown[] = [
    {
      type: 'session',
      uuid: `claude-code:${stringOrNull(first?.sessionId) ?? 'unknown'}`,
      parentUuid: null,
      timestamp:
        stringOrNull(objects.find((v) => typeof v.timestamp === 'string')?.timestamp) ?? '',
      version: SESSION_FORMAT_VERSION,
      sessionId: stringOrNull(first?.sessionId) ?? '',
      cwd: stringOrNull(objects.find((v) => typeof v.cwd === 'string')?.cwd) ?? '',
      importedFrom: { format: 'claude-code', version: stringOrNull(first?.version) }
    }
  ]
  const recordLines = [lines[0] ?? 1]
  const parents = new ParentResolver()
  /** API message id of each drawn record of a streamed message (and of its tool results). */
  const groupOf = new Map<string, string>()
  /** The last record chained into each message group. */
  const tailOf = new Map<string, string>()
  /** Each prompt's snapshot taken before it: every tracked file's latest backup. */
  const beforePrompt = new Map<string, Json>()

  values.forEach((v, i) => {
    if (!isObject(v)) return
    const line = lines[i] ?? 0
    const emit = (record: Json) => {
      records.push(record)
      recordLines.push(line)
    }
    const uuid = stringOrNull(v.uuid)
    if (v.type === 'file-history-snapshot' || v.type === 'file-history-delta') {
      for (const change of fileChanges(v, beforePrompt))
        emit({ ...change, uuid: `${uuid ?? 'fh'}:${line}:${change.path}` })
      return
    }
    if (uuid === null) return
    if ((v.isSidechain === true) !== onlySidechains) return
    const logical = v.parentUuid === null ? stringOrNull(v.logicalParentUuid) : null
    const declared = parents.resolve(logical ?? stringOrNull(v.parentUuid))
    if (!isMessage(v) || !isObject(v.message)) return parents.skip(uuid, declared)

    const group = messageGroup(v, declared, groupOf)
    const parentUuid = group === null ? declared : (tailOf.get(group) ?? declared)
    if (group !== null) {
      groupOf.set(uuid, group)
      tailOf.set(group, uuid)
    }
    parents.node(uuid)
    const notTyped =
      v.isMeta === true || v.isCompactSummary === true || v.isVisibleInTranscriptOnly === true
    emit({
      ...v,
      parentUuid,
      timestamp: stringOrNull(v.timestamp) ?? '',
      ...(v.type === 'user' && notTyped ? { isMeta: true } : {})
    })
  })
  return { records, lines: recordLines, problems: [] }
}

/**
 * The streamed-message group a record joins: an assistant block record joins its message.id's
 * group; a user record holding only tool results joins the group of the record it answers.
 */
function messageGroup(v: Json, parent: string | null, groupOf: Map<string, string>): string | null {
  const message = v.message as Json
  if (v.type === 'assistant') return stringOrNull(message.id) ?? stringOrNull(v.requestId)
  const content = message.content
  const onlyResults =
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((b) => isObject(b) && b.type === 'tool_result')
  return onlyResults && parent !== null ? (groupOf.get(parent) ?? null) : null
}

function fileChanges(v: Json, beforePrompt: Map<string, Json>): Json[] {
  const timestamp = stringOrNull(v.timestamp) ?? ''
  const base = {
    type: 'file_change',
    parentUuid: null,
    timestamp,
    after: null,
    source: 'claude-code'
  }
  if (v.type === 'file-history-delta') {
    const backup = isObject(v.backup) ? v.backup : {}
    const path = stringOrNull(v.trackingPath)
    const prompt = stringOrNull(v.messageId)
    if (path === null || prompt === null) return []
    return [{ ...base, checkpointUuid: prompt, path, before: stringOrNull(backup.backupFileName) }]
  }
  const snapshot = v.snapshot
  if (!isObject(snapshot)) return []
  const prompt = stringOrNull(snapshot.messageId)
  const backups = snapshot.trackedFileBackups
  if (prompt === null || !isObject(backups)) return []
  if (v.isSnapshotUpdate !== true) {
    beforePrompt.set(prompt, backups)
    return []
  }
  // An update repeats every tracked file: a file changed in this turn is one whose backup is not
  // the one the snapshot before the prompt listed.
  const before = beforePrompt.get(prompt) ?? {}
  const changed = Object.entries(backups).filter(
    ([path, backup]) => JSON.stringify(before[path]) !== JSON.stringify(backup)
  )
  return changed.map(([path, backup]) => ({
    ...base,
    checkpointUuid: prompt,
    path,
    before: isObject(backup) ? stringOrNull(backup.backupFileName) : null
  }))
}
