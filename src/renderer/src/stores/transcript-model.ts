// The transcript as the renderer shows it, and how the agent's stream changes it. Messages are kept
// by id with their order apart, so a streamed token replaces one entry object: the row showing
// that message re-renders, the other rows and the list do not.
import { escapeReorderingChars } from '../../../shared/control-chars'
import { shownLine } from '../../../shared/shown-text'
import { maskSecrets } from '../../../shared/mask-secrets'
import type { ContentBlock, MessageContent } from '../../../shared/messages'
import type { AgentEvent, TranscriptEntry } from '../../../shared/views'

export type BlockView =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool'; toolUseId: string; name: string; inputText: string }
  | { kind: 'tool_result'; toolUseId: string; text: string; isError: boolean }
  | { kind: 'other'; type: string }

export interface EntryView {
  uuid: string
  nodeId: string
  role: TranscriptEntry['role']
  isPrompt: boolean
  hidden: boolean
  blocks: BlockView[]
  timestamp: string
  streaming: boolean
}

/**
 * A tool call's outcome: from the tool_end event while live, from its tool_result block after.
 * While it runs, `text` is its output so far (tool_output) and `startedAt` when it began to run
 * (unset while it waits on a permission).
 */
export interface ToolOutcome {
  state: 'running' | 'done' | 'error'
  text: string
  startedAt?: string
}

export interface TranscriptModel {
  order: readonly string[]
  byId: Readonly<Record<string, EntryView>>
  tools: Readonly<Record<string, ToolOutcome>>
  /** The turn streamed messages belong to: the last prompt seen. */
  liveNodeId: string | null
}

export const emptyTranscript: TranscriptModel = { order: [], byId: {}, tools: {}, liveNodeId: null }

function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string'
        ? part.text
        : `[${typeof part === 'object' && part !== null && 'type' in part ? String(part.type) : 'block'}]`
    )
    .join('\n')
}

function inputText(input: unknown): string {
  return input === undefined ? '' : JSON.stringify(input, null, 2)
}

/**
 * A block as the panels draw it. Its text has the characters that reorder text escaped
 * (shared/control-chars.ts): a bidi override in a command or a file would show it in another
 * order than it runs or reads. Streamed pieces are escaped as they come (appendDelta).
 */
function toBlockView(block: ContentBlock): BlockView {
  switch (block.type) {
    case 'text':
      return {
        kind: 'text',
        text: escapeReorderingChars(typeof block.text === 'string' ? block.text : '')
      }
    case 'thinking':
      return {
        kind: 'thinking',
        text: escapeReorderingChars(typeof block.thinking === 'string' ? block.thinking : '')
      }
    case 'tool_use':
      return {
        kind: 'tool',
        toolUseId: String(block.id),
        name: escapeReorderingChars(String(block.name)),
        inputText: escapeReorderingChars(inputText(block.input))
      }
    case 'tool_result':
      return {
        kind: 'tool_result',
        toolUseId: String(block.tool_use_id),
        text: escapeReorderingChars(resultText(block.content)),
        isError: block.is_error === true
      }
    default:
      return { kind: 'other', type: escapeReorderingChars(block.type) }
  }
}

export function toBlockViews(content: MessageContent): BlockView[] {
  return typeof content === 'string' ? [{ kind: 'text', text: content }] : content.map(toBlockView)
}

function outcomesOf(blocks: readonly BlockView[]): Record<string, ToolOutcome> {
  const outcomes: Record<string, ToolOutcome> = {}
  for (const block of blocks) {
    if (block.kind === 'tool_result') {
      outcomes[block.toolUseId] = { state: block.isError ? 'error' : 'done', text: block.text }
    }
  }
  return outcomes
}

/** A transcript as loaded from session:transcriptRange (a window of the branch). */
export function fromEntries(entries: readonly TranscriptEntry[]): TranscriptModel {
  const byId: Record<string, EntryView> = {}
  const order: string[] = []
  const tools: Record<string, ToolOutcome> = {}
  let liveNodeId: string | null = null
  for (const entry of entries) {
    if (byId[entry.uuid] !== undefined) continue
    const blocks = toBlockViews(entry.content)
    byId[entry.uuid] = {
      uuid: entry.uuid,
      nodeId: entry.nodeId,
      role: entry.role,
      isPrompt: entry.isPrompt,
      hidden: entry.hidden,
      blocks,
      timestamp: entry.timestamp,
      streaming: false
    }
    order.push(entry.uuid)
    Object.assign(tools, outcomesOf(blocks))
    liveNodeId = entry.nodeId
  }
  return { order, byId, tools, liveNodeId }
}

/** `first`'s messages then `then`'s (windows of one branch, loaded apart). */
export function joinModels(first: TranscriptModel, then: TranscriptModel): TranscriptModel {
  return {
    order: [...first.order, ...then.order.filter((id) => first.byId[id] === undefined)],
    byId: { ...first.byId, ...then.byId },
    tools: { ...first.tools, ...then.tools },
    liveNodeId: then.liveNodeId ?? first.liveNodeId
  }
}

/** The messages `from` … `to` (exclusive) of a model, with their tool calls' outcomes. */
export function sliceModel(model: TranscriptModel, from: number, to: number): TranscriptModel {
  const order = model.order.slice(from, to)
  const byId: Record<string, EntryView> = {}
  const tools: Record<string, ToolOutcome> = {}
  for (const id of order) {
    const entry = model.byId[id] as EntryView
    byId[id] = entry
    for (const block of entry.blocks) {
      const toolUseId = block.kind === 'tool' || block.kind === 'tool_result' ? block.toolUseId : ''
      const outcome = model.tools[toolUseId]
      if (outcome !== undefined) tools[toolUseId] = outcome
    }
  }
  const lastId = order[order.length - 1]
  return { order, byId, tools, liveNodeId: lastId === undefined ? null : byId[lastId]!.nodeId }
}

/** A user message made only of tool results: shown under its tool calls, not as a row. */
export function isToolResultCarrier(entry: EntryView): boolean {
  return entry.blocks.length > 0 && entry.blocks.every((b) => b.kind === 'tool_result')
}

function emptyBlock(blockType: 'text' | 'thinking' | 'tool_use'): BlockView {
  if (blockType === 'tool_use') return { kind: 'tool', toolUseId: '', name: '', inputText: '' }
  return { kind: blockType, text: '' }
}

function appendDelta(block: BlockView, piece: string): BlockView {
  // Escaping is per character, so escaped pieces join into the escaped whole.
  const text = escapeReorderingChars(piece)
  switch (block.kind) {
    case 'text':
    case 'thinking':
      return { ...block, text: block.text + text }
    case 'tool':
      return { ...block, inputText: block.inputText + text }
    default:
      return block
  }
}

function withEntry(model: TranscriptModel, entry: EntryView): TranscriptModel {
  const known = model.byId[entry.uuid] !== undefined
  return {
    ...model,
    byId: { ...model.byId, [entry.uuid]: entry },
    order: known ? model.order : [...model.order, entry.uuid]
  }
}

/** The transcript after one event of the agent's stream. `now` stamps messages it creates. */
export function applyAgentEvent(
  model: TranscriptModel,
  event: AgentEvent,
  now: string
): TranscriptModel {
  switch (event.type) {
    case 'message_start': {
      if (model.byId[event.id] !== undefined) return model
      const lastId = model.order[model.order.length - 1]
      const nodeId =
        model.liveNodeId ?? (lastId === undefined ? event.id : model.byId[lastId]!.nodeId)
      return withEntry(model, {
        uuid: event.id,
        nodeId,
        role: event.role,
        isPrompt: false,
        hidden: false,
        blocks: [],
        timestamp: now,
        streaming: true
      })
    }
    case 'block_delta': {
      const entry = model.byId[event.messageId]
      if (entry === undefined || event.index < 0) return model
      const blocks = [...entry.blocks]
      while (blocks.length <= event.index) blocks.push(emptyBlock(event.blockType))
      blocks[event.index] = appendDelta(blocks[event.index]!, event.text)
      return withEntry(model, { ...entry, blocks })
    }
    case 'message_end': {
      const blocks = toBlockViews(event.content)
      const isPrompt = event.role === 'user' && !blocks.some((b) => b.kind === 'tool_result')
      const existing = model.byId[event.id]
      const lastId = model.order[model.order.length - 1]
      const nodeId = isPrompt
        ? event.id
        : (existing?.nodeId ??
          model.liveNodeId ??
          (lastId === undefined ? event.id : model.byId[lastId]!.nodeId))
      const next = withEntry(model, {
        uuid: event.id,
        nodeId,
        role: event.role,
        isPrompt,
        hidden: false,
        blocks,
        timestamp: existing?.timestamp ?? now,
        streaming: false
      })
      return {
        ...next,
        tools: { ...next.tools, ...outcomesOf(blocks) },
        liveNodeId: isPrompt ? event.id : next.liveNodeId
      }
    }
    case 'tool_start':
      return {
        ...model,
        tools: {
          ...model.tools,
          // No start yet: the call may wait on a permission first (its first tool_output
          // says when it began to run).
          [event.toolUseId]: { state: 'running', text: '' }
        }
      }
    case 'tool_output': {
      // A view that arrives after the result (the events of one call keep their order, but a
      // page may load the result from the session first) changes nothing.
      const known = model.tools[event.toolUseId]
      if (known !== undefined && known.state !== 'running') return model
      return {
        ...model,
        tools: {
          ...model.tools,
          [event.toolUseId]: {
            state: 'running',
            text: escapeReorderingChars(event.text),
            startedAt: event.startedAt
          }
        }
      }
    }
    case 'tool_end':
      return {
        ...model,
        tools: {
          ...model.tools,
          [event.toolUseId]: {
            state: event.isError ? 'error' : 'done',
            text: escapeReorderingChars(event.text)
          }
        }
      }
    case 'status': {
      if (event.running) return model
      // A run that ends (or is stopped) leaves no message marked as still streaming.
      const streaming = model.order.filter((id) => model.byId[id]!.streaming)
      if (streaming.length === 0) return model
      const byId = { ...model.byId }
      for (const id of streaming) byId[id] = { ...byId[id]!, streaming: false }
      return { ...model, byId }
    }
    case 'notice':
    case 'summary_progress':
    case 'restore_progress':
    case 'context_usage':
      return model
  }
}

/** The input fields that say what a tool call is about, in the order they are looked for. */
const SUBJECT_FIELDS = ['file_path', 'command', 'pattern', 'goal', 'report'] as const
const SUBJECT_CHARS = 80

/**
 * What a tool call is about, for its one-line summary ("config.py", "npm test"): read from its
 * JSON input, which may still be streaming (then there is no subject yet).
 */
export function toolCallSubject(inputText: string): string {
  let input: unknown
  try {
    input = JSON.parse(inputText)
  } catch {
    return ''
  }
  if (typeof input !== 'object' || input === null) return ''
  const record = input as Record<string, unknown>
  const field = SUBJECT_FIELDS.find((key) => typeof record[key] === 'string')
  if (field === undefined) return ''
  // The first line, saying how many follow: a command's later lines are never out of sight
  // unannounced. Keys masked, control characters escaped.
  const [first = '', ...rest] = maskSecrets(record[field] as string).split('\n')
  const cut = shownLine(first, SUBJECT_CHARS)
  return rest.length === 0 ? cut : `${cut} … +${rest.length} line${rest.length === 1 ? '' : 's'}`
}
