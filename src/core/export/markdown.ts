// A session as Markdown: a heading per node (number, title, label), the prompt, the answers, each
// tool call on one line with its input and result cut to a few lines, summaries and reports in
// full. Meant to be read or pasted into a document; the session's words are its text.
//
// The session is untrusted text. A Markdown viewer renders raw HTML, so outside code `<` and `&`
// are written as entities (a `<script>` in a prompt reads as text), and only code every viewer
// takes for code is left as it is (prose, below); images are written as text, so a viewer
// fetches nothing; fenced blocks get a fence longer than any backtick run inside; control and
// bidi characters are escaped as everywhere.
import { escapeControlChars, escapeControlCharsOneLine } from '../../shared/control-chars'
import type { TranscriptEntry } from '../../shared/views'
import { type EntryPart, entryParts, inputLines } from './entry-parts'
import { type ExportModel, type ExportedNode, kindPrefix } from './export-model'

/** Lines of a tool's input or result shown before "… (+N lines)". */
const SHOWN_LINES = 12
const SHOWN_LINE_CHARS = 300

export function renderMarkdown(model: ExportModel): string {
  const { session } = model
  const turns = model.nodes.filter((n) => n.kind === 'turn').length
  const out: string[] = [
    `# Session ${inline(session.sessionId)}`,
    '',
    `- Workspace: ${code(session.cwd)}`,
    `- Session file: ${code(session.file)}`,
    ...(session.forkedFrom === null
      ? []
      : [
          `- Forked from: session ${code(session.forkedFrom.sessionId)} at ${code(session.forkedFrom.leafUuid ?? '(start)')}`
        ]),
    `- Exported: ${inline(model.exportedAt)}`,
    `- ${model.scope === 'all' ? 'The whole tree' : 'One branch'}: ${turns} turn${turns === 1 ? '' : 's'}, ${model.nodes.length} node${model.nodes.length === 1 ? '' : 's'}`,
    ''
  ]
  const parents = new Map(model.nodes.map((n) => [n.id, n]))
  for (const node of model.nodes) out.push(...nodeSection(node, parents, model, session.cwd))
  return `${out.join('\n').trimEnd()}\n`
}

function nodeSection(
  node: ExportedNode,
  byId: Map<string, ExportedNode>,
  model: ExportModel,
  cwd: string
): string[] {
  const number = node.promptNumber === null ? '' : `${node.promptNumber}. `
  const kind = kindPrefix(node.kind)
  const label = node.label === null ? '' : ` — label: ${inline(node.label)}`
  const out = ['---', '', `## ${number}${kind}${inline(node.title) || '(empty)'}${label}`, '']
  const notes = [inline(node.timestamp)]
  if (model.scope === 'all') {
    if (node.id === model.leafUuid || node.entries.some((e) => e.uuid === model.leafUuid)) {
      notes.push('the conversation is here')
    } else if (node.onActivePath) notes.push('on the active branch')
    const parent = node.parentId === null ? undefined : byId.get(node.parentId)
    if (node.fork && parent !== undefined) notes.push(`a branch from ${nodeName(parent)}`)
  }
  const origin = node.mergedFrom == null ? undefined : byId.get(node.mergedFrom)
  if (origin !== undefined) notes.push(`brought in from ${nodeName(origin)}`)
  if (node.files.length > 0) notes.push(`changed ${node.files.map(code).join(', ')}`)
  out.push(`_${notes.join(' · ')}_`, '')
  if (node.summary !== null) out.push(...quoted(node.summary), '')
  for (const entry of node.entries) out.push(...entryLines(entry, cwd))
  return out
}

function nodeName(node: ExportedNode): string {
  // Turns are numbered per branch (two branches may each have a turn 3): the title names it.
  const title = `“${inline(node.title)}”`
  return node.promptNumber === null ? title : `turn ${node.promptNumber} ${title}`
}

function entryLines(entry: TranscriptEntry, cwd: string): string[] {
  // Harness messages (reminders, a report's hidden text) are not the conversation people had;
  // a summary's text is the node's own, shown above.
  if (entry.hidden || entry.role === 'summary') return []
  const out: string[] = []
  for (const part of entryParts(entry, cwd)) out.push(...partLines(part, entry))
  return out
}

function partLines(part: EntryPart, entry: TranscriptEntry): string[] {
  switch (part.kind) {
    case 'text':
      if (part.text.trim() === '') return []
      return entry.isPrompt
        ? ['**Prompt**', '', ...quoted(part.text), '']
        : [entry.role === 'user' ? '**User**' : '**Answer**', '', prose(part.text), '']
    case 'thinking':
      return []
    case 'tool_use':
      return [`- ⏺ ${code(part.call)}`, '', ...cut(inputLines(part.input), '  '), '']
    case 'tool_result':
      return [`- ${part.isError ? '✘' : '✔'} result`, '', ...cut(part.text, '  '), '']
    case 'other':
      return [`_[${inline(part.type)}]_`, '']
  }
}

/** The first lines of `text` in a fenced block, the rest counted. */
function cut(text: string, indent: string): string[] {
  const lines = text.split('\n')
  const shown = lines
    .slice(0, SHOWN_LINES)
    .map((line) => (line.length > SHOWN_LINE_CHARS ? `${line.slice(0, SHOWN_LINE_CHARS)}…` : line))
    .join('\n')
  const more =
    lines.length > SHOWN_LINES ? [`${indent}… (+${lines.length - SHOWN_LINES} lines)`] : []
  return [...fenced(shown, indent), ...more]
}

/** A fenced code block: the fence is longer than any run of backticks in the text. */
export function fenced(text: string, indent = ''): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return [fence, ...escapeControlChars(text).split('\n'), fence].map((line) => `${indent}${line}`)
}

function quoted(text: string): string[] {
  return prose(text)
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
}

/** Text on one line, as Markdown prose (a heading's, a label's: no fence can open there). */
function inline(text: string): string {
  return proseLine(escapeControlCharsOneLine(text))
}

/** A path or id as inline code. */
function code(text: string): string {
  const oneLine = escapeControlCharsOneLine(text)
  const longest = Math.max(0, ...[...oneLine.matchAll(/`+/g)].map((m) => m[0].length))
  const ticks = '`'.repeat(longest + 1)
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : ''
  return `${ticks}${pad}${oneLine}${pad}${ticks}`
}

/** A line that opens a fenced block: the fence, or undefined. A backtick fence's info string holds no backtick. */
function fenceOpened(line: string): string | undefined {
  return /^ {0,3}(`{3,})[^`]*$/.exec(line)?.[1] ?? /^ {0,3}(~{3,})/.exec(line)?.[1]
}

function closesFence(line: string, fence: string): boolean {
  const marker = /^ {0,3}(`+|~+)[ \t]*$/.exec(line)?.[1]
  return marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length
}

/**
 * Markdown written by people and models, kept as Markdown, with HTML disarmed outside the code
 * every viewer takes for code: `<` and `&` become entities elsewhere, and stay as they are in
 * fenced blocks and in inline code spans, where a viewer shows them literally anyway.
 *
 * What is left as code is what no reading of the text can take for anything else. A fence is
 * one only at the start of a line (up to three spaces), its info string without a backtick (the
 * finding's `` ```x`y `` opened nothing in a viewer, and the `<script>` after it ran) nor a `|`
 * (markdown-it reads such a line over a `| --- |` as a table, marked as a fence); it is
 * written again at the line's start, as its closing line is, so a list around it cannot end it
 * early, and one left open is closed where the text ends, so the next text starts outside it.
 * Inline code is one pair of backtick runs on one line (proseLine).
 */
export function prose(text: string): string {
  let fence: string | null = null
  const out: string[] = []
  for (const line of escapeControlChars(text).split('\n')) {
    if (fence !== null) {
      if (closesFence(line, fence)) {
        out.push(fence)
        fence = null
      } else out.push(line)
      continue
    }
    const opened = fenceOpened(line)
    if (opened !== undefined && !line.includes('|')) {
      fence = opened
      out.push(line.trimStart())
    } else {
      // What some viewer could still open a fence with is no fence in any: its first `~` is
      // escaped (proseLine escapes a backtick that is not in a span already).
      out.push(proseLine(line).replace(/^(\s*)~/, '$1\\~'))
    }
  }
  if (fence !== null) out.push(fence)
  return out.join('\n')
}

/**
 * One line of prose: `<` and `&` as entities, `![` as `!\\[` (an image written as text: a
 * remote one would be fetched by the viewer), outside inline code spans. A span is a backtick
 * run and the next run of the same length on the same line, neither escaped by a backslash;
 * every other backtick is escaped (`\\``), so no viewer can pair it with one on another line
 * and read what lies between as code, nor read the finding's `` \\` `` as our span's opener. In
 * a line holding `|` nothing is code: a table's cells are split at every `|`, inside spans too;
 * nor in the word of a bare URL.
 */
function proseLine(line: string): string {
  const disarm = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/!\[/g, '!\\[').replace(/`/g, '\\`')
  if (line.includes('|')) return outsideEscapes(line, disarm)
  let out = ''
  let at = 0
  let plain = 0
  while (at < line.length) {
    const char = line[at] as string
    if (char === '\\' && at + 1 < line.length) {
      at += 2
      continue
    }
    if (char !== '`') {
      at++
      continue
    }
    let run = at
    while (line[run] === '`') run++
    const ticks = line.slice(at, run)
    const close = findRun(line, ticks, run)
    // A bare URL runs to the next space, through a backtick (GFM's autolinks, in marked): a
    // span in the same word as one may not be read as a span.
    const word = line.slice(0, at).split(/\s/).pop() ?? ''
    if (close < 0 || /(?:https?|ftp):\/\/|www\./i.test(word)) {
      at = run
      continue
    }
    out += outsideEscapes(line.slice(plain, at), disarm) + line.slice(at, close + ticks.length)
    at = close + ticks.length
    plain = at
  }
  return out + outsideEscapes(line.slice(plain), disarm)
}

/**
 * `f` applied to `text` but for its backslash escapes, which are kept (`\\*` shows `*`; escaping
 * the character again would show the backslash), but for `\\<` and `\\&`, written as the
 * entities they show as: a bare URL before one takes the backslash and stops at `<` (marked),
 * which would then open a tag.
 */
function outsideEscapes(text: string, f: (s: string) => string): string {
  return text
    .split(/(\\[!-/:-@[-`{-~])/)
    .map((piece, i) => (i % 2 === 0 ? f(piece) : /[<&]/.test(piece) ? f(piece.slice(1)) : piece))
    .join('')
}

/** The index of a run of exactly `ticks` in `line` from `from`, or -1. */
function findRun(line: string, ticks: string, from: number): number {
  for (let i = line.indexOf(ticks, from); i >= 0; i = line.indexOf(ticks, i + 1)) {
    let end = i + ticks.length
    if (line[i - 1] === '`') continue
    while (line[end] === '`') end++
    if (end - i === ticks.length) return i
    i = end - 1
  }
  return -1
}
