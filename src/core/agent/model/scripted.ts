// The offline model behind `--model scripted:FILE`: a JSON file of rules answers each model call,
// streamed in small pieces like the API, so the demo, the terminal chat and the tests run the real
// loop with no key and no network.
//
// FILE is {"rules": [{"match": "<substring>", "responses": [[<content blocks>], ...]}]}. A call takes
// the latest prompt the user typed on the current branch, picks the first rule whose `match`
// occurs in it, and answers responses[k], k being the number of answers the model already gave
// after that prompt (see ScriptPosition). A tool_use block without an id gets a fresh one;
// stop_reason is tool_use when the answer holds a tool_use block, else end_turn. A summary request
// (a branch summary, a compaction) is answered with the file's optional top-level "summary".
import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import * as z from 'zod'
import { yieldToEventLoop } from '../../os/event-loop'
import { isObject } from '../../session/json'
import { ModelCallError } from './model-client'
import type {
  ModelCallOptions,
  ModelClient,
  ModelReply,
  ModelRequest,
  StreamedBlockType
} from './model-client'

const ScriptTextBlock = z.strictObject({ type: z.literal('text'), text: z.string() })
const ScriptToolUseBlock = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown())
})
const ScriptBlock = z.discriminatedUnion('type', [ScriptTextBlock, ScriptToolUseBlock])

export const ScriptFile = z.strictObject({
  /** The answer to every summary request. */
  summary: z.string().optional(),
  rules: z.array(
    z.strictObject({
      match: z.string(),
      responses: z.array(z.array(ScriptBlock).min(1))
    })
  )
})
export type ScriptFile = z.infer<typeof ScriptFile>

/** Far larger than any script; a larger file is refused unread. */
const MAX_SCRIPT_BYTES = 16 * 1024 * 1024

/**
 * Reads and checks a script file; a bad file is an Error naming the file and the first problem.
 * It quotes nothing from the file: the path may name any readable file (`scripted:/etc/shadow`
 * sent to settings:set), and the message goes back to whoever asked.
 */
export async function loadScriptFile(file: string): Promise<ScriptFile> {
  const notAScript = (why: string) => new Error(`Not a scripted model file: ${file} (${why})`)
  const text = await readScriptText(file, notAScript)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    // Not its message: it quotes the text around the error.
    throw notAScript(`line ${lineOfJsonError(text, error)} is not valid JSON`)
  }
  if (!isObject(json) || !Array.isArray(json.rules)) {
    throw notAScript('no "rules" list at the top level')
  }
  const parsed = ScriptFile.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where =
      issue?.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') ?? ''
    // zod names an unknown key in its message: the key is the file's text, not the schema's.
    const problem =
      issue?.code === 'unrecognized_keys'
        ? `${issue.keys.length} unknown key${issue.keys.length === 1 ? '' : 's'}`
        : (issue?.message ?? 'unknown')
    throw new Error(
      `Scripted model file ${file} is invalid at ${where.replace(/^\./, '') || '(root)'}: ${problem}`
    )
  }
  return parsed.data
}

async function readScriptText(file: string, notAScript: (why: string) => Error): Promise<string> {
  let handle: FileHandle
  try {
    // Non-blocking: opening a named pipe must not wait for a writer.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    throw new Error(
      `Scripted model file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`
    )
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw notAScript('not a regular file')
    if (info.size > MAX_SCRIPT_BYTES) throw notAScript(`over ${MAX_SCRIPT_BYTES} bytes`)
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}

/**
 * The line (1-based) where `text` stops being JSON, found without quoting it: from the parser's
 * position when it gives one; else (an unexpected token) by a binary search over line ends for
 * the first prefix that is not "JSON so far": once a prefix fails before its end, every longer
 * one does.
 */
function lineOfJsonError(text: string, error: unknown): number {
  const lineAt = (position: number) => text.slice(0, position).split('\n').length
  const position = errorPosition(error)
  if (position !== null) return lineAt(position)
  const ends: number[] = []
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) ends.push(i)
  ends.push(text.length)
  let low = 0
  let high = ends.length - 1
  while (low < high) {
    const middle = (low + high) >> 1
    if (isJsonSoFar(text.slice(0, ends[middle]))) low = middle + 1
    else high = middle
  }
  return low + 1
}

/** Where JSON.parse stopped, when its message says (`… in JSON at position 16`). */
function errorPosition(error: unknown): number | null {
  const message = (error as Error).message
  if (message === 'Unexpected end of JSON input') return Number.MAX_SAFE_INTEGER
  const match = /at position (\d+)/.exec(message)
  return match ? Number(match[1]) : null
}

/** Parses, or fails only where it ran out of text. */
function isJsonSoFar(prefix: string): boolean {
  try {
    JSON.parse(prefix)
    return true
  } catch (error) {
    return (errorPosition(error) ?? -1) >= prefix.length
  }
}

type AnswerBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }

export interface ScriptedAnswer {
  content: AnswerBlock[]
  stopReason: 'tool_use' | 'end_turn'
}

/** The answer a script gives at a position: content blocks with ids filled in, and stop_reason. */
export function scriptedAnswer(
  script: ScriptFile,
  prompt: string | null,
  answered: number
): ScriptedAnswer {
  if (prompt === null)
    return textAnswer('Scripted model: there is no prompt on this branch to answer.')
  const rule = script.rules.find((r) => prompt.includes(r.match))
  if (rule === undefined)
    return textAnswer(`Scripted model: no rule matches the prompt "${oneLine(prompt)}".`)
  const response = rule.responses[answered]
  if (response === undefined) {
    return textAnswer(
      `Scripted model: the rule matching "${rule.match}" has no response left (answer ${answered + 1} asked, ${rule.responses.length} scripted).`
    )
  }
  const content = response.map((b): AnswerBlock =>
    b.type === 'tool_use'
      ? {
          type: 'tool_use',
          id: b.id ?? `toolu_${randomUUID().replaceAll('-', '')}`,
          name: b.name,
          input: b.input
        }
      : { type: 'text', text: b.text }
  )
  return {
    content,
    stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
  }
}

function textAnswer(text: string): ScriptedAnswer {
  return { content: [{ type: 'text', text }], stopReason: 'end_turn' }
}

function oneLine(text: string): string {
  const line = text.split('\n')[0] ?? ''
  return line.length > 80 ? `${line.slice(0, 80)}…` : line
}

export class ScriptedModel implements ModelClient {
  readonly id: string

  constructor(
    file: string,
    private readonly script: ScriptFile
  ) {
    this.id = `scripted:${file}`
  }

  static async load(file: string): Promise<ScriptedModel> {
    return new ScriptedModel(file, await loadScriptFile(file))
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const { content, stopReason } =
      request.summary === true
        ? textAnswer(
            this.script.summary ??
              'Scripted model: the script has no "summary" to answer a summary request with.'
          )
        : scriptedAnswer(this.script, request.script.prompt, request.script.answered)
    const streamed: string[] = []
    for (const [index, block] of content.entries()) {
      const [blockType, text]: [StreamedBlockType, string] =
        block.type === 'tool_use' ? ['tool_use', JSON.stringify(block.input)] : ['text', block.text]
      let sofar = ''
      for (const piece of pieces(text)) {
        // Yield between pieces as a network stream would, so a stop() from an event handler lands
        // mid-answer exactly as it does with the API.
        await yieldToEventLoop()
        if (options.signal.aborted) {
          if (blockType === 'text' && sofar !== '') streamed.push(sofar)
          throw new ModelCallError('aborted', 'Stopped.', streamed)
        }
        sofar += piece
        options.onDelta(index, blockType, piece)
      }
      if (blockType === 'text') streamed.push(sofar)
    }
    return { content, stopReason, model: this.id }
  }
}

/** Pieces of a few characters (whole code points), like the API's deltas. */
function pieces(text: string): string[] {
  const chars = [...text]
  const out: string[] = []
  for (let i = 0; i < chars.length; i += 6) out.push(chars.slice(i, i + 6).join(''))
  return out
}
