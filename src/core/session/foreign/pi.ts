// A read-only view of a pi session (~/.pi/agent/sessions/…/<time>_<uuid>.jsonl) in our tree model,
// for `inspect`. Version 1 files have no ids: their entries form one chain in file order, and each
// gets the id `pi-line-<n>`. Versions 2 and 3 link entries by id / parentId.
// - message entries: user and assistant messages map to ours (a toolCall block becomes tool_use);
//   a toolResult message becomes a user record holding a tool_result block (so it is no prompt);
//   bashExecution and custom (v2: hookMessage) messages become visible custom_message records.
// - branch_summary and custom_message map one to one (display false = hidden); a compaction is
//   drawn as a custom_message "pi:compaction" holding its summary; label maps to our label.
// - model_change, thinking_level_change, custom, session_info and labels are pi tree entries that
//   we do not draw: they stay links of the chain (ParentResolver).
import { SESSION_FORMAT_VERSION } from '../records'
import { isObject, stringOrNull, type Json } from '../json'
import type { MappedRecords } from '../load'
import { ParentResolver } from './parents'

export function looksLikePi(first: unknown): boolean {
  return (
    isObject(first) &&
    first.type === 'session' &&
    typeof first.id === 'string' &&
    first.sessionId === undefined
  )
}

export function fromPi(values: readonly unknown[], lines: readonly number[]): MappedRecords {
  const header = isObject(values[0]) ? values[0] : {}
  const version = typeof header.version === 'number' ? header.version : 1
  const records: unknown[] = [
    {
      type: 'session',
      uuid: `pi:${stringOrNull(header.id) ?? 'unknown'}`,
      parentUuid: null,
      timestamp: stringOrNull(header.timestamp) ?? '',
      version: SESSION_FORMAT_VERSION,
      sessionId: stringOrNull(header.id) ?? '',
      cwd: stringOrNull(header.cwd) ?? '',
      importedFrom: { format: 'pi', version }
    }
  ]
  const recordLines = [lines[0] ?? 1]
  const parents = new ParentResolver()
  let previous: string | null = null

  values.forEach((v, i) => {
    if (i === 0 || !isObject(v)) return
    const line = lines[i] ?? 0
    const id = version >= 2 ? stringOrNull(v.id) : `pi-line-${line}`
    if (id === null) return
    const parentUuid = parents.resolve(version >= 2 ? stringOrNull(v.parentId) : previous)
    previous = id
    const mapped = mapEntry(v, id, parentUuid)
    if (mapped === null || mapped.type === 'label') parents.skip(id, parentUuid)
    else parents.node(id)
    if (mapped !== null) {
      records.push(mapped)
      recordLines.push(line)
    }
  })
  return { records, lines: recordLines, problems: [] }
}

function mapEntry(v: Json, uuid: string, parentUuid: string | null): Json | null {
  const base = { uuid, parentUuid, timestamp: stringOrNull(v.timestamp) ?? '' }
  switch (v.type) {
    case 'message':
      return isObject(v.message) ? mapMessage(v.message, base) : null
    case 'branch_summary':
      return {
        type: 'branch_summary',
        ...base,
        fromId: v.fromId,
        summary: v.summary,
        details: v.details
      }
    case 'custom_message':
      return {
        type: 'custom_message',
        ...base,
        customType: v.customType,
        hidden: v.display === false,
        content: v.content,
        details: v.details
      }
    case 'compaction':
      return {
        type: 'custom_message',
        ...base,
        customType: 'pi:compaction',
        hidden: false,
        content: stringOrNull(v.summary) ?? '',
        details: { firstKeptEntryId: v.firstKeptEntryId, tokensBefore: v.tokensBefore }
      }
    case 'label':
      // A label's own id sits in pi's chain: resolved like any undrawn entry by the caller.
      return { type: 'label', ...base, targetUuid: v.targetId, label: stringOrNull(v.label) }
    default:
      return null
  }
}

function mapMessage(
  m: Json,
  base: { uuid: string; parentUuid: string | null; timestamp: string }
): Json | null {
  switch (m.role) {
    case 'user':
      return { type: 'user', ...base, message: { role: 'user', content: m.content } }
    case 'assistant':
      return {
        type: 'assistant',
        ...base,
        message: {
          role: 'assistant',
          content: Array.isArray(m.content) ? m.content.map(toolCallAsToolUse) : m.content,
          model: stringOrNull(m.model) ?? undefined,
          stop_reason: stringOrNull(m.stopReason),
          usage: isObject(m.usage) ? m.usage : undefined
        }
      }
    case 'toolResult':
      return {
        type: 'user',
        ...base,
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: m.toolCallId,
              content: m.content,
              is_error: m.isError === true
            }
          ]
        }
      }
    case 'bashExecution':
      return {
        type: 'custom_message',
        ...base,
        customType: 'pi:bashExecution',
        hidden: false,
        content: `$ ${stringOrNull(m.command) ?? ''}\n${stringOrNull(m.output) ?? ''}`
      }
    case 'custom':
    case 'hookMessage':
      return {
        type: 'custom_message',
        ...base,
        customType: stringOrNull(m.customType) ?? 'pi:custom',
        hidden: m.display === false,
        content: m.content ?? ''
      }
    default:
      return null
  }
}

function toolCallAsToolUse(block: unknown): unknown {
  if (!isObject(block) || block.type !== 'toolCall') return block
  return { type: 'tool_use', id: block.id, name: block.name, input: block.arguments }
}
