// `rewind-studio inspect FILE [--json]`: prints a session's tree, read-only. Reads our sessions,
// other tools' sessions (Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode: mapped onto
// the same tree model; an OpenCode session by its locator `<opencode.db>#<id>`), with their
// sub-agent runs, and lists every problem loading found. Never writes, never takes the writer lock.
import { isObject } from '../../core/session/json'
import { readSessionFile, type LoadedSession } from '../../core/session/load'
import { MAX_LISTED_PROBLEMS } from '../../core/session/problems'
import {
  contentText,
  isCompactionRecord,
  typedPrompt,
  type TreeRecord
} from '../../core/session/tree'
import { escapeControlCharsInJson, escapeControlCharsOneLine } from '../../shared/control-chars'
import { maskSecrets, maskSecretsIn } from '../../shared/mask-secrets'
import { shownOneLine } from '../../shared/shown-text'
import { sayError } from '../format'
import { groupedNumber } from '../../shared/grouped-number'

const USAGE = 'Usage: rewind-studio inspect FILE [--json]'

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(
      `${USAGE}\n\nPrints the session tree in FILE: the active path (*), the leaf (>), the checkpoints\nand any problems. --json prints the same as one JSON object.`
    )
    return 0
  }
  const files = args.filter((a) => a !== '--json')
  const unknown = files.filter((a) => a.startsWith('-'))
  if (files.length !== 1 || unknown.length > 0) {
    console.error(unknown.length > 0 ? `inspect: unknown option ${unknown[0]}\n${USAGE}` : USAGE)
    return 2
  }
  const file = files[0] ?? ''
  const json = args.includes('--json')
  let loaded: LoadedSession
  try {
    const slim = slimNodes()
    loaded = readSessionFile(file, { keepNode: json ? slim : describedNodes(slim) })
  } catch (error) {
    sayError(`inspect: cannot read ${file}: ${(error as Error).message}`)
    return 1
  }
  // What the log holds is shown with keys masked and control characters escaped: a prompt or a
  // foreign file may carry an API key, or an escape sequence that would act on the terminal.
  if (json) {
    console.log(
      escapeControlCharsInJson(JSON.stringify(maskSecretsIn(inspectJson(loaded)), null, 2))
    )
  } else writeLines(loaded)
  return 0
}

/** Where the text goes: whole lines, and each node's line as its parts, each safe to print. */
interface TextSink {
  line(text: string): void
  /**
   * The line `${mark} ${indentation(forks)}${isFork ? '└ ' : ''}${id} ${description}${label}`,
   * `id` being printableId(uuid).
   */
  node(
    mark: string,
    forks: number,
    isFork: boolean,
    uuid: string,
    description: string,
    label: string
  ): void
}

/**
 * Prints the text as it is made, straight into chunks of bytes written one by one: the text of
 * a 100 MB session is 120,000 lines, and lines joined into batches, or even into one string
 * each, and then encoded again cost more than making them did (bench/cli-startup.ts). Each
 * chunk is a new buffer, as a write to a pipe may still hold the last one.
 */
function writeLines(loaded: LoadedSession): void {
  quietOnClosedStdout()
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES)
  let at = 0
  /** Room for `units` UTF-16 units: UTF-8 takes at most 3 bytes for each (4 for a pair). */
  const room = (units: number) => {
    const most = units * 3
    if (at + most <= chunk.length) return
    if (at > 0) process.stdout.write(chunk.subarray(0, at))
    chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, most))
    at = 0
  }
  /** Short ASCII (an id) byte by byte: less than a call to encode it. */
  const put = (text: string) => {
    if (text.length > 16) {
      at += chunk.write(text, at)
      return
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c >= 0x80) {
        at += chunk.write(text.slice(i), at)
        return
      }
      chunk[at++] = c
    }
  }
  /**
   * printableId(uuid), from the uuid's own characters when they are printable ASCII (most are):
   * no string cut from it, nothing to escape. `then`: the units the line still needs after it.
   */
  const putId = (uuid: string, then: number) => {
    const start = at
    for (let i = uuid.length > SHORT_ID + 4 ? uuid.length - SHORT_ID : 0; i < uuid.length; i++) {
      const c = uuid.charCodeAt(i)
      if (c < 0x20 || c >= 0x7f) {
        at = start
        const id = printableId(uuid)
        room(id.length + then)
        put(id)
        return
      }
      chunk[at++] = c
    }
  }
  inspectLines(loaded, {
    line(text) {
      room(text.length + 1)
      at += chunk.write(text, at)
      chunk[at++] = NEWLINE
    },
    node(mark, forks, isFork, uuid, description, label) {
      const indent = indentationBytes(forks)
      room(indent.length + SHORT_ID + 4 + description.length + label.length + 6)
      chunk[at++] = mark.charCodeAt(0)
      chunk[at++] = SPACE
      at += indent.copy(chunk, at)
      if (isFork) at += FORK.copy(chunk, at)
      putId(uuid, description.length + label.length + 2)
      chunk[at++] = SPACE
      at += chunk.write(description, at)
      if (label !== '') at += chunk.write(label, at)
      chunk[at++] = NEWLINE
    }
  })
  if (at > 0) process.stdout.write(chunk.subarray(0, at))
}

/**
 * A reader that stops early (`| head`) closes the pipe: the rest is dropped quietly, as
 * console.log drops it, not thrown as an unhandled EPIPE. Once per process (a process that runs
 * many commands would gather a listener per command).
 */
function quietOnClosedStdout(): void {
  if (quiet) return
  process.stdout.on('error', () => {})
  quiet = true
}

let quiet = false

const CHUNK_BYTES = 256 * 1024
const NEWLINE = 0x0a
const SPACE = 0x20
/** What a fork's line shows before its id, as UTF-8 (not a two-byte string per line). */
const FORK = Buffer.from('└ ')

export function inspectJson(loaded: LoadedSession) {
  const { tree } = loaded
  return {
    format: loaded.format,
    sessionId: tree.header?.sessionId ?? null,
    cwd: tree.header?.cwd ?? null,
    records: loaded.recordCount,
    nodes: tree.size,
    tornTail: loaded.tornTail,
    leaves: tree.leaves().length,
    leaf: tree.leafUuid,
    activePath: tree.activePath().map((r) => r.uuid),
    checkpoints: tree.checkpoints().map(({ index, uuid, prompt, filesChanged }) => ({
      index,
      uuid,
      prompt,
      filesChanged
    })),
    summaries: tree
      .summaries()
      .map(({ uuid, fromId, summary, kind }) => ({ uuid, fromId, summary, kind })),
    subagents: loaded.subagents.map((run) => ({
      id: run.id,
      title: run.title,
      toolUseId: run.toolUseId,
      calledFrom: run.parentUuid,
      /** The run whose transcript holds that call (a sub-agent's own sub-agent), else null. */
      inRun: run.parentRunId,
      source: run.source,
      messages: run.tree.size
    })),
    problems: loaded.problems,
    /** Problems found past those listed: a file of millions lists the first ones of each source. */
    unlistedProblems: loaded.unlistedProblems
  }
}

/**
 * The tree as text. A chain stays at one indentation and only a fork indents (a 1,000-message
 * conversation without branches is 1,000 lines, not a staircase): each child after the first
 * of a node opens a nested block. Each line is safe to print: keys masked, control characters
 * escaped.
 */
export function inspectText(loaded: LoadedSession): string[] {
  const lines: string[] = []
  inspectLines(loaded, {
    line: (text) => lines.push(text),
    node: (mark, forks, isFork, uuid, description, label) =>
      lines.push(
        `${mark} ${indentation(forks)}${isFork ? '└ ' : ''}${printableId(uuid)} ${description}${label}`
      )
  })
  return lines
}

/** inspectText, line by line to `sink` as each is made. */
function inspectLines(loaded: LoadedSession, sink: TextSink): void {
  const { tree } = loaded
  // The active path runs from a root down, so a walk depth first meets its nodes in order: the
  // next one to meet is all a node is compared with (no set of 100,000 nodes to look up in).
  const path = tree.activePath()
  let onPath = 0
  const labels = tree.labels()
  const head: string[] = [
    `${loaded.format} session ${tree.header?.sessionId ?? '(no header)'}${tree.header?.cwd ? ` in ${tree.header.cwd}` : ''}`,
    `${loaded.recordCount} records, ${tree.size} messages, ${tree.leaves().length} leaves; * active path, > leaf`,
    ''
  ]
  for (const line of head) sink.line(printableLine(line))
  tree.forEachDepthFirst((node, forks, isFork) => {
    let mark = ' '
    if (node === path[onPath]) mark = ++onPath === path.length ? '>' : '*'
    const label = labels.size === 0 ? undefined : labels.get(node.uuid)
    // Each part from the file is masked where it is made (describe) and made safe to print (the
    // id by the sink: printableId); the indentation is ours.
    sink.node(
      mark,
      forks,
      isFork,
      node.uuid,
      (node as Described)[DESCRIBED] ?? printableDescription(node),
      label ? escapeControlCharsOneLine(`  [${maskSecrets(label)}]`) : ''
    )
  })
  // Each line written as it is made: 20,000 checkpoints' lines gathered first all outlived the
  // young generation, and copying them out of it cost more than making them
  // (bench/cli-startup.ts).
  const out = (line: string) => sink.line(printableLine(line))
  const checkpoints = tree.checkpoints(path)
  out('')
  out(`Checkpoints (${checkpoints.length}):`)
  // The checkpoints are prompts of the active path, in its order: each one's node is found by
  // going on along the path. A lookup by uuid costs more: a binary search for ids of ours, each
  // step reaching a string somewhere in the heap (UuidIndex).
  let atNode = 0
  for (const c of checkpoints) {
    while (atNode < path.length && path[atNode]?.uuid !== c.uuid) atNode++
    out(
      `  ${c.index}. ${shortId(c.uuid)} ${shownPrompt(path[atNode], c.prompt)} (${c.filesChanged} file${c.filesChanged === 1 ? '' : 's'} changed)`
    )
  }
  const summaries = tree.summaries()
  if (summaries.length > 0) {
    out('')
    out(`Summaries (${summaries.length}):`)
    for (const s of summaries)
      out(`  ${shortId(s.uuid)} ${s.kind} from ${shortId(s.fromId)}: ${oneLine(s.summary, 70)}`)
  }
  if (loaded.subagents.length > 0) {
    out('')
    out(`Sub-agents (${loaded.subagents.length}):`)
    for (const run of loaded.subagents) {
      const within = run.parentRunId === null ? '' : ` in ${run.parentRunId}`
      const from =
        run.parentUuid === null
          ? 'no call found'
          : `called from ${shortId(run.parentUuid)}${within}`
      out(
        `  ${run.id} ${oneLine(run.title, 50)} (${run.tree.size} messages, ${from}, ${run.source})`
      )
    }
  }
  out('')
  const problems = loaded.problems.length + loaded.unlistedProblems
  out(problems === 0 ? 'No problems.' : `Problems (${groupedNumber(problems)}):`)
  for (const p of loaded.problems) out(`  line ${p.line}: ${p.kind}: ${p.message}`)
  if (loaded.unlistedProblems > 0) {
    out(
      `  … and ${groupedNumber(loaded.unlistedProblems)} more, not listed (each check lists its first ${groupedNumber(MAX_LISTED_PROBLEMS)})`
    )
  }
  if (loaded.tornTail)
    out('The last line is torn (a write was cut off); every earlier record is intact.')
}

/** Forks deeper than this are not indented further: their depth is written instead. */
const MAX_INDENT = 20

function indentation(depth: number): string {
  const shallow = INDENTS[depth]
  if (shallow !== undefined) return shallow
  let deep = DEEP_INDENTS.get(depth)
  if (deep === undefined) {
    deep = `${'  '.repeat(MAX_INDENT)}(${depth}) `
    DEEP_INDENTS.set(depth, deep)
  }
  return deep
}

/**
 * Each indentation, made once (not a string per line): up to MAX_INDENT, and deeper ones as they
 * are met. A long session that was often rewound has most of its lines deeper than MAX_INDENT (the
 * 100 MB one of bench/cli-startup.ts: 93,000 of 119,000), and a string made for each cost more
 * than writing the line.
 */
const INDENTS = Array.from({ length: MAX_INDENT + 1 }, (_, depth) => '  '.repeat(depth))
const DEEP_INDENTS = new Map<number, string>()

/**
 * indentation(depth) as the bytes writeLines copies, each made once: a copy of bytes costs a
 * fraction of encoding the string again on each of the 119,000 lines (bench/cli-startup.ts).
 */
function indentationBytes(depth: number): Buffer {
  let bytes = INDENT_BYTES.get(depth)
  if (bytes === undefined) {
    bytes = Buffer.from(indentation(depth))
    INDENT_BYTES.set(depth, bytes)
  }
  return bytes
}

const INDENT_BYTES = new Map<number, Buffer>()

/**
 * A line as it may be printed: keys masked, and every control or bidi character escaped,
 * newlines too (ids, labels and paths from a foreign file can hold anything).
 */
function printableLine(line: string): string {
  return shownOneLine(line)
}

/**
 * A node's description, safe to print, made when its line was parsed (describedNode), and a
 * prompt's text as shown (oneLine), which its checkpoint's line shows again (shownPrompt).
 */
const DESCRIBED = Symbol('described')
const SHOWN = Symbol('shown prompt')
type Described = TreeRecord & { [DESCRIBED]?: string; [SHOWN]?: string }

/**
 * What inspect keeps of a user or assistant record (readSessionFile's keepNode): a record of
 * the same type, uuids and time with the prompt whole (a checkpoint shows it) and no other
 * content, for which the tree finds the same prompt (typedPrompt) or none. The rest of the
 * record (tool results of kilobytes, the model's text) dies young: every record of a 100 MB log
 * kept to the end cost `inspect --json` a fifth of its time in garbage collection
 * (bench/cli-startup.ts: 1.28x a bare parse before, 1.05-1.10x after).
 */
function slimNodes(): (record: TreeRecord, prompt?: string | null) => Described {
  // The last kept node's uuid: most nodes' parent is the node before them, and a slim record
  // then holds that string, not the copy its line parsed (a 100 MB log's 134,000 parent ids
  // are 7 MB of heap the garbage collector would otherwise keep marking to the end).
  let previous: string | undefined
  return (record, prompt = typedPrompt(record)) => {
    if (record.type !== 'user' && record.type !== 'assistant') return record
    // A reminder's tag left in a prompt (one nested in another) would be taken out again when
    // the slim record's prompt is read: such a record is kept whole.
    if (prompt !== null && prompt.includes('<system-reminder>')) return record
    const { uuid, timestamp } = record
    const parentUuid = record.parentUuid === previous ? previous : record.parentUuid
    previous = uuid
    if (record.type === 'assistant')
      return {
        type: 'assistant',
        uuid,
        parentUuid,
        timestamp,
        message: { role: 'assistant', content: '' }
      }
    return prompt === null
      ? {
          type: 'user',
          uuid,
          parentUuid,
          timestamp,
          isMeta: true,
          message: { role: 'user', content: '' }
        }
      : { type: 'user', uuid, parentUuid, timestamp, message: { role: 'user', content: prompt } }
  }
}

/** A slim node (slimNodes), with its description for its line made from the whole record. */
function describedNodes(slimNode: ReturnType<typeof slimNodes>): (record: TreeRecord) => Described {
  return (record) => {
    const prompt = typedPrompt(record)
    const slim = slimNode(record, prompt)
    if (slim === record) return slim
    const shown = prompt === null ? undefined : oneLine(prompt, PROMPT_WIDTH)
    slim[DESCRIBED] = printableDescription(record, prompt, shown)
    if (shown !== undefined) slim[SHOWN] = shown
    return slim
  }
}

/**
 * oneLine(prompt, PROMPT_WIDTH) for the checkpoint at `node`: as made for its node's line when
 * its record was parsed (20,000 checkpoints of a 100 MB log), or made now.
 */
function shownPrompt(node: Described | undefined, prompt: string): string {
  const shown = node?.[SHOWN]
  return shown !== undefined && node?.type === 'user' && node.message.content === prompt
    ? shown
    : oneLine(prompt, PROMPT_WIDTH)
}

/** describe, with control characters escaped (as a line holding it would be). */
function printableDescription(r: TreeRecord, prompt = typedPrompt(r), shown?: string): string {
  return escapeControlCharsOneLine(describe(r, prompt, shown))
}

/**
 * `prompt`: the record's typedPrompt, when already known; `shown`: that prompt as shown
 * (oneLine), when already made.
 */
function describe(r: TreeRecord, prompt = typedPrompt(r), shown?: string): string {
  // Another tool's compaction (its summary a user record or a note of ours) is one as ours is.
  if (r.type !== 'compaction' && isCompactionRecord(r)) {
    const text =
      r.type === 'user' ? r.message.content : r.type === 'custom_message' ? r.content : ''
    // A reader's headline (the summary without the prefix the tool sends it with) says more.
    const headline = r.type === 'custom_message' && isObject(r.details) ? r.details.headline : null
    return `compaction: ${oneLine(typeof headline === 'string' ? headline : contentText(text), 60)}`
  }
  switch (r.type) {
    case 'user': {
      if (prompt !== null) return `prompt: ${shown ?? oneLine(prompt, PROMPT_WIDTH)}`
      const content = r.message.content
      const results =
        typeof content === 'string' ? 0 : content.filter((b) => b.type === 'tool_result').length
      return results > 0
        ? `tool result${results > 1 ? ` x${results}` : ''}`
        : `user (meta): ${oneLine(contentText(content), 60)}`
    }
    case 'assistant': {
      const content = r.message.content
      const text = oneLine(contentText(content), 60)
      let shown = text
      if (typeof content !== 'string') {
        for (const b of content)
          if (b.type === 'tool_use' && 'name' in b)
            shown += `${shown === '' ? '' : ' '}[${maskSecrets(String(b.name))}]`
      }
      if (shown !== '') return `assistant: ${shown}`
      const blocks = typeof content === 'string' ? [] : content.map((b) => maskSecrets(b.type))
      return `assistant: (${blocks.join(', ') || 'empty'})`
    }
    case 'branch_summary':
      return `branch summary: ${oneLine(r.summary, 60)}`
    case 'compaction':
      return `compaction (${r.trigger}, ${r.tokensBefore} tokens before): ${oneLine(r.summary, 50)}`
    case 'custom_message':
      return `${maskSecrets(r.customType)}${r.hidden ? ' (hidden)' : ''}: ${oneLine(contentText(r.content), 60)}`
    case 'merge':
      return `merge from ${shortId(r.fromUuid)}: ${r.files.length + (r.moreFiles ?? 0)} file(s)${r.summary === undefined ? '' : `, ${oneLine(r.summary, 50)}`}`
  }
}

/**
 * A uuid's last 8 characters (a uuid v7 starts with its timestamp, so ids written in the same
 * second share their first 8); a short foreign id (pi's "pi-line-12", "a1b2c3d4") whole.
 */
function shortId(id: string): string {
  return id.length <= SHORT_ID + 4 ? id : id.slice(-SHORT_ID)
}

const SHORT_ID = 8

/** How many characters of a prompt a line shows. */
const PROMPT_WIDTH = 70

/** shortId, safe to print: too short to hold a key, its control characters escaped. */
function printableId(id: string): string {
  return escapeControlCharsOneLine(shortId(id))
}

/**
 * Room past the shown width kept when a long text is cut before masking: any key that starts in
 * the shown part keeps more than the shortest key pattern needs (40 characters), so masking
 * still recognises it.
 */
const MASK_MARGIN = 128

/**
 * The text on one line, at most `width` characters: whitespace runs become one space, keys are
 * masked before it is cut, so a cut cannot leave part of a key too short to be recognised. Only
 * the start of a long text is read (a 3 kB tool result shows 60 characters; inspect of a 100 MB
 * log describes 120,000 records).
 */
export function oneLine(text: string, width: number): string {
  const start = text.length > width + MASK_MARGIN ? text.slice(0, width + MASK_MARGIN) : text
  const masked = maskSecrets(start)
  if (foldsAsIs(masked, width + 1)) return `${masked.slice(0, width - 1)}…`
  let flat = foldWhitespace(masked)
  // Whitespace collapsed the start below the width: the rest is needed after all.
  if (flat.length <= width && start !== text) flat = foldWhitespace(maskSecrets(text))
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat
}

/**
 * Each whitespace run as one space, trimmed: what `.replace(/\s+/g, ' ').trim()` gives, matching
 * only runs that change (any whitespace but a space, or a space and more): a replace per single
 * space between words made it the costliest step of `inspect` (bench/cli-startup.ts).
 */
function foldWhitespace(text: string): string {
  return text.replace(WHITESPACE_TO_FOLD, ' ').trim()
}

const WHITESPACE_TO_FOLD = /[^\S ]\s*| \s+/g

/**
 * Whether the first `n` characters of `text` are printable ASCII that folding and trimming leave
 * as they are (no space first, none before another or a control), with more after them: then the
 * folded text starts with them and is longer than `n - 1`, so it is cut there. Most of what a
 * session says is such text: a loop over `n` characters instead of a replace over `n + 128`.
 */
function foldsAsIs(text: string, n: number): boolean {
  if (text.length <= n || text.charCodeAt(0) === 0x20) return false
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c > 0x20 && c < 0x7f) continue
    if (c !== 0x20) return false
    const next = text.charCodeAt(i + 1)
    if (!(next > 0x20 && next < 0x7f)) return false
  }
  return true
}
