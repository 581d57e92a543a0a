// A read-only view of a pi session (~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl) in our tree
// model. Version 1 files have no ids: their entries form one chain in file order, and each gets
// the id `pi-line-<n>`. Versions 2 and 3 link entries by id / parentId.
// - message entries: user and assistant messages map to ours (a toolCall block becomes tool_use);
//   a toolResult message becomes a user record holding a tool_result block (so it is no prompt);
//   bashExecution and custom (v2: hookMessage) messages become visible custom_message records.
// - branch_summary and custom_message map one to one (display false = hidden); a compaction is
//   drawn as a custom_message "pi:compaction" holding its summary (the graph's compaction node);
//   label maps to our label.
// - model_change, thinking_level_change, custom, session_info and entry types we do not know are
//   not drawn: they stay links of the chain (ParentResolver) and are kept raw (FOREIGN_RECORD).
// - The leaf is pi's: its last entry of any type (SessionManager's _buildIndex), so a model change
//   or a label written after a /tree move carries the move. When such an entry is not drawn, a
//   navigate record puts our leaf at the drawn record it stands for.
// - A version 1 compaction names what it kept by the index of an entry in the file
//   (firstKeptEntryIndex, the header being 0), which pi's migration turns into that entry's id:
//   its details get the id (`pi-line-<n>`), as a v3 compaction's firstKeptEntryId.
// oh-my-pi (oh-my-pi.ts) writes the same entries and reads through this mapper.
import { SESSION_FORMAT_VERSION } from '../format-version'
import { isObject, stringOrNull, type Json } from '../json'
import { ProblemLog } from '../problems'
import { PI_COMPACTION_TYPE, conversationNodeOf, typedPrompt } from '../tree'
import { ParentResolver } from './parents'
import { foreignRecord } from './raw'
import type { Emit, ForeignFormatName, ForeignMapper, ForeignReader, SubagentRun } from './types'

export const pi: ForeignReader = {
  format: 'pi',
  detect: (values) => looksLikePi(values[0]),
  mapper: () => new PiMapper('pi'),
  keeps: 'pi keeps no backups of the files it changes: there is nothing to restore them from.'
}

export function looksLikePi(first: unknown): boolean {
  return (
    isObject(first) &&
    first.type === 'session' &&
    typeof first.id === 'string' &&
    first.sessionId === undefined
  )
}

/**
 * The prompt a pi entry is, as the tree counts it (a user message with text), or null: the
 * session list (sources/session-summary.ts) counts by it.
 */
export function typedInPi(v: Json): string | null {
  if (v.type !== 'message') return null
  const mapped = isObject(v.message)
    ? mapMessage(v.message, { uuid: 'pi-entry', parentUuid: null, timestamp: '' })
    : null
  const node = mapped === null ? null : conversationNodeOf(mapped)
  return node === null ? null : typedPrompt(node)
}

export class PiMapper implements ForeignMapper {
  readonly problems = new ProblemLog()
  readonly backups = null
  private headerSeen = false
  private version = 1
  private readonly parents = new ParentResolver()
  private previous: string | null = null
  private lastDrawn: string | null = null
  /** Where our tree's leaf is: the last drawn record, or the last navigate's target. */
  private leaf: string | null = null
  /** Version 1: the id of each entry by its index in the file (the header is 0). */
  private readonly byIndex: string[] = []
  private entries = 0

  constructor(private readonly format: ForeignFormatName) {}

  add(value: unknown, line: number, emit: Emit): void {
    if (!this.headerSeen) {
      this.headerSeen = true
      const header = isObject(value) && value.type === 'session' ? value : {}
      this.version = typeof header.version === 'number' ? header.version : 1
      emit(
        {
          type: 'session',
          uuid: `${this.format}:${stringOrNull(header.id) ?? 'unknown'}`,
          parentUuid: null,
          timestamp: stringOrNull(header.timestamp) ?? '',
          version: SESSION_FORMAT_VERSION,
          sessionId: stringOrNull(header.id) ?? '',
          cwd: stringOrNull(header.cwd) ?? '',
          importedFrom: { format: this.format, version: this.version },
          ...(typeof header.title === 'string' ? { title: header.title } : {})
        },
        line
      )
      if (header === value) return
    }
    if (!isObject(value)) return emit(foreignRecord(this.lastDrawn, value), line)
    const v = value
    const id = this.version >= 2 ? stringOrNull(v.id) : `pi-line-${line}`
    if (this.version < 2 && id !== null) this.byIndex[++this.entries] = id
    if (id === null) return emit(foreignRecord(this.lastDrawn, v), line)
    const parentUuid = this.parents.resolve(
      this.version >= 2 ? stringOrNull(v.parentId) : this.previous
    )
    this.previous = id
    const mapped = mapEntry(v, id, parentUuid, this.byIndex)
    const drawn = mapped !== null && mapped.type !== 'label'
    if (drawn) {
      this.parents.node(id, parentUuid)
      this.lastDrawn = id
      this.leaf = id
    } else this.parents.skip(id, parentUuid)
    emit(mapped ?? foreignRecord(parentUuid, v, id), line)
    // pi resumes at its last entry whatever its type: one not drawn stands for its parent.
    if (!drawn && parentUuid !== this.leaf) {
      this.leaf = parentUuid
      emit(
        {
          type: 'navigate',
          uuid: `${this.format}-leaf:${id}`,
          parentUuid: null,
          timestamp: stringOrNull(v.timestamp) ?? '',
          leafUuid: parentUuid,
          reason: 'switch-branch'
        },
        line
      )
    }
  }

  subagents(): SubagentRun[] {
    return []
  }
}

function mapEntry(
  v: Json,
  uuid: string,
  parentUuid: string | null,
  byIndex: readonly string[]
): Json | null {
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
        customType: PI_COMPACTION_TYPE,
        hidden: false,
        content: stringOrNull(v.summary) ?? '',
        details: {
          firstKeptEntryId:
            v.firstKeptEntryId ??
            (typeof v.firstKeptEntryIndex === 'number'
              ? byIndex[v.firstKeptEntryIndex]
              : undefined),
          tokensBefore: v.tokensBefore
        }
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
