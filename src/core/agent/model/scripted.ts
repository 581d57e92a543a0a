// The offline model behind `--model scripted:FILE`: a JSON file of rules answers each model call,
// streamed in small pieces like the API, so the demo, the terminal chat and the tests run the real
// loop with no key and no network.
//
// FILE is {"rules": [{"match": "<substring>", "responses": [[<content blocks>], ...]}]}. A call takes
// the latest prompt the user typed on the current branch, picks the first rule whose `match`
// occurs in it, and answers responses[k], k being the number of answers the model already gave
// after that prompt (see ScriptPosition). A tool_use block without an id gets a fresh one;
// stop_reason is tool_use when the answer holds a tool_use block, else end_turn.
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
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
  rules: z.array(
    z.strictObject({
      match: z.string(),
      responses: z.array(z.array(ScriptBlock).min(1))
    })
  )
})
export type ScriptFile = z.infer<typeof ScriptFile>

/** Reads and checks a script file; a bad file is an Error naming the file and the first problem. */
export async function loadScriptFile(file: string): Promise<ScriptFile> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new Error(
      `Scripted model file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`
    )
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`Scripted model file ${file} is not JSON: ${(error as Error).message}`)
  }
  const parsed = ScriptFile.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where =
      issue?.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') ?? ''
    throw new Error(
      `Scripted model file ${file} is invalid at ${where.replace(/^\./, '') || '(root)'}: ${issue?.message ?? 'unknown'}`
    )
  }
  return parsed.data
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
    const { content, stopReason } = scriptedAnswer(
      this.script,
      request.script.prompt,
      request.script.answered
    )
    const streamed: string[] = []
    for (const [index, block] of content.entries()) {
      const [blockType, text]: [StreamedBlockType, string] =
        block.type === 'tool_use' ? ['tool_use', JSON.stringify(block.input)] : ['text', block.text]
      let sofar = ''
      for (const piece of pieces(text)) {
        // Yield between pieces as a network stream would, so a stop() from an event handler lands
        // mid-answer exactly as it does with the API.
        await new Promise((resolve) => setImmediate(resolve))
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
