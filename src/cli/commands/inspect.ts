// `rewind-studio inspect FILE [--json]`: prints a session's tree, read-only. Reads our sessions,
// Claude Code transcripts, pi and oh-my-pi sessions (mapped onto the same tree model), with their
// sub-agent runs, and lists every problem loading found. Never writes, never takes the writer lock.
import { readSessionFile, type LoadedSession } from '../../core/session/load'
import { contentText, typedPrompt, type TreeRecord } from '../../core/session/tree'
import { escapeControlCharsInJson, escapeControlCharsOneLine } from '../../shared/control-chars'
import { maskSecrets, maskSecretsIn } from '../../shared/mask-secrets'
import { sayError } from '../format'

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
  let loaded: LoadedSession
  try {
    loaded = readSessionFile(file)
  } catch (error) {
    sayError(`inspect: cannot read ${file}: ${(error as Error).message}`)
    return 1
  }
  // What the log holds is shown with keys masked and control characters escaped: a prompt or a
  // foreign file may carry an API key, or an escape sequence that would act on the terminal.
  if (args.includes('--json')) {
    console.log(
      escapeControlCharsInJson(JSON.stringify(maskSecretsIn(inspectJson(loaded)), null, 2))
    )
  } else writeLines(loaded)
  return 0
}

/**
 * Prints the text a batch at a time, as it is made: the text of a 100 MB session is 120,000
 * lines, and lines printed and dropped cost the garbage collector far less than lines all kept
 * until the end (bench/cli-startup.ts).
 */
function writeLines(loaded: LoadedSession): void {
  let batch: string[] = []
  let chars = 0
  inspectLines(loaded, (line) => {
    batch.push(line)
    chars += line.length + 1
    if (chars >= 256 * 1024) {
      console.log(batch.join('\n'))
      batch = []
      chars = 0
    }
  })
  if (batch.length > 0) console.log(batch.join('\n'))
}

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
      source: run.source,
      messages: run.tree.size
    })),
    problems: loaded.problems
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
  inspectLines(loaded, (line) => lines.push(line))
  return lines
}

/** inspectText, line by line to `emit` as each is made. */
function inspectLines(loaded: LoadedSession, emit: (line: string) => void): void {
  const { tree } = loaded
  const onPath = new Set<TreeRecord>(tree.activePath())
  const labels = tree.labels()
  const head: string[] = [
    `${loaded.format} session ${tree.header?.sessionId ?? '(no header)'}${tree.header?.cwd ? ` in ${tree.header.cwd}` : ''}`,
    `${loaded.recordCount} records, ${tree.size} messages, ${tree.leaves().length} leaves; * active path, > leaf`,
    ''
  ]
  for (const line of head) emit(printableLine(line))
  tree.forEachDepthFirst((node, forks, isFork) => {
    const mark = node.uuid === tree.leafUuid ? '>' : onPath.has(node) ? '*' : ' '
    const label = labels.size === 0 ? undefined : labels.get(node.uuid)
    // Each part from the file is masked where it is made (describe); the line is then made safe
    // to print. An id is too short to hold a key (shortId); the indentation is ours.
    const text = `${shortId(node.uuid)} ${describe(node)}${label ? `  [${maskSecrets(label)}]` : ''}`
    emit(`${mark} ${indentation(forks)}${isFork ? '└ ' : ''}${escapeControlCharsOneLine(text)}`)
  })
  const checkpoints = tree.checkpoints()
  const out: string[] = ['', `Checkpoints (${checkpoints.length}):`]
  for (const c of checkpoints) {
    out.push(
      `  ${c.index}. ${shortId(c.uuid)} ${oneLine(c.prompt, 70)} (${c.filesChanged} file${c.filesChanged === 1 ? '' : 's'} changed)`
    )
  }
  const summaries = tree.summaries()
  if (summaries.length > 0) {
    out.push('', `Summaries (${summaries.length}):`)
    for (const s of summaries)
      out.push(
        `  ${shortId(s.uuid)} ${s.kind} from ${shortId(s.fromId)}: ${oneLine(s.summary, 70)}`
      )
  }
  if (loaded.subagents.length > 0) {
    out.push('', `Sub-agents (${loaded.subagents.length}):`)
    for (const run of loaded.subagents) {
      const from =
        run.parentUuid === null ? 'no call found' : `called from ${shortId(run.parentUuid)}`
      out.push(
        `  ${run.id} ${oneLine(run.title, 50)} (${run.tree.size} messages, ${from}, ${run.source})`
      )
    }
  }
  out.push(
    '',
    loaded.problems.length === 0 ? 'No problems.' : `Problems (${loaded.problems.length}):`
  )
  for (const p of loaded.problems) out.push(`  line ${p.line}: ${p.kind}: ${p.message}`)
  if (loaded.tornTail)
    out.push('The last line is torn (a write was cut off); every earlier record is intact.')
  for (const line of out) emit(printableLine(line))
}

/** Forks deeper than this are not indented further: their depth is written instead. */
const MAX_INDENT = 20

function indentation(depth: number): string {
  return depth <= MAX_INDENT ? '  '.repeat(depth) : `${'  '.repeat(MAX_INDENT)}(${depth}) `
}

/**
 * A line as it may be printed: keys masked, and every control or bidi character escaped,
 * newlines too (ids, labels and paths from a foreign file can hold anything).
 */
function printableLine(line: string): string {
  return escapeControlCharsOneLine(maskSecrets(line))
}

function describe(r: TreeRecord): string {
  switch (r.type) {
    case 'user': {
      const prompt = typedPrompt(r)
      if (prompt !== null) return `prompt: ${oneLine(prompt, 70)}`
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
  }
}

/**
 * A uuid's last 8 characters (a uuid v7 starts with its timestamp, so ids written in the same
 * second share their first 8); a short foreign id (pi's "pi-line-12", "a1b2c3d4") whole.
 */
function shortId(id: string): string {
  return id.length <= 12 ? id : id.slice(-8)
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
  let flat = foldWhitespace(maskSecrets(start))
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
