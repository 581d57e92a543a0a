// A session as Markdown: a heading per node (number, title, label), the prompt, the answers, each
// tool call on one line with its input and result cut to a few lines, summaries and reports in
// full. Meant to be read or pasted into a document; the session's words are its text.
//
// The session is untrusted text. A Markdown viewer renders raw HTML, so outside code `<` and `&`
// are written as entities (a `<script>` in a prompt reads as text); fenced blocks get a fence
// longer than any backtick run inside; control and bidi characters are escaped as everywhere.
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
  const number = node.number === null ? '' : `${node.number}. `
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
  if (node.files.length > 0) notes.push(`changed ${node.files.map(code).join(', ')}`)
  out.push(`_${notes.join(' · ')}_`, '')
  if (node.summary !== null) out.push(...quoted(node.summary), '')
  for (const entry of node.entries) out.push(...entryLines(entry, cwd))
  return out
}

function nodeName(node: ExportedNode): string {
  return node.number === null ? `“${inline(node.title)}”` : `turn ${node.number}`
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

/** Text on one line, as Markdown prose. */
function inline(text: string): string {
  return prose(escapeControlCharsOneLine(text))
}

/** A path or id as inline code. */
function code(text: string): string {
  const oneLine = escapeControlCharsOneLine(text)
  const longest = Math.max(0, ...[...oneLine.matchAll(/`+/g)].map((m) => m[0].length))
  const ticks = '`'.repeat(longest + 1)
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : ''
  return `${ticks}${pad}${oneLine}${pad}${ticks}`
}

/**
 * Markdown written by people and models, kept as Markdown, with HTML disarmed outside code:
 * `<` and `&` become entities in prose lines and stay as they are in fenced blocks and inline
 * code spans, where a viewer shows them literally anyway.
 */
export function prose(text: string): string {
  let fence: string | null = null
  return escapeControlChars(text)
    .split('\n')
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
      if (fence !== null) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
          fence = null
        }
        return line
      }
      if (marker !== undefined) {
        fence = marker
        return line
      }
      return outsideCodeSpans(line, (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;'))
    })
    .join('\n')
}

/** `line` with `f` applied to the parts outside inline code spans (`…`, ``…``). */
function outsideCodeSpans(line: string, f: (s: string) => string): string {
  let out = ''
  let at = 0
  while (at < line.length) {
    const open = line.indexOf('`', at)
    if (open < 0) break
    let run = open
    while (line[run] === '`') run++
    const ticks = line.slice(open, run)
    const close = findRun(line, ticks, run)
    if (close < 0) {
      out += f(line.slice(at, run))
      at = run
      continue
    }
    out += f(line.slice(at, open)) + line.slice(open, close + ticks.length)
    at = close + ticks.length
  }
  return out + f(line.slice(at))
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
