// The shape every agent tool has, and the two functions the loop calls around them: the tool
// list sent to the API (toolDefinition) and the one safe way to run a tool (runTool). A tool
// never crashes the loop: bad input and failures come back as an isError result the model reads.
import { CodedError } from '../../../shared/coded-error'
import * as z from 'zod'
import type { WriteGuard } from '../../files/write-guard'
import type { FileStateTable } from '../file-state'

/** read: never asks; edit: asks in 'default'; execute: asks in 'default' and 'acceptEdits'. */
export type ToolPermission = 'read' | 'edit' | 'execute'

export interface ToolOutput {
  content: string
  isError: boolean
  details?: unknown
}

export interface ToolContext {
  /** Workspace root. */
  cwd: string
  /** Read-before-edit table (file-state.ts). */
  fileState: FileStateTable
  guard: WriteGuard
  /** Extra roots the user allowed outside the workspace (default none). */
  allowedOutsideRoots: string[]
  /** Cancel: Bash kills its process group; the others stop early. */
  signal: AbortSignal
  /** Output as a command makes it, for people to watch (Bash; the agent's tool_output event). */
  onOutput?: (text: string) => void
}

export interface Tool<I = unknown> {
  name: string
  /** For the model. */
  description: string
  /** Strict zod object; the API's input_schema is its JSON schema. */
  inputSchema: z.ZodType<I>
  permission: ToolPermission
  /**
   * One line for people: "Edit(config.py)", "Bash(npm test)". With `cwd`, paths inside the
   * workspace are shown relative to it, as the model may send absolute paths.
   */
  describeCall(input: I, cwd?: string): string
  /**
   * What a permission prompt must show whole besides that line, when the line cannot hold it:
   * Bash's command (every line), the content Write puts in, Edit's old and new text.
   */
  approvalDetail?(input: I): ApprovalDetail
  execute(input: I, ctx: ToolContext): Promise<ToolOutput>
}

/**
 * One line for a tool call, as the transcript and exports show it ("Edit(config.py)"): the
 * tool's own words for input it takes, the bare name otherwise (an unknown tool, bad input).
 */
export function describeToolCall(
  tool: Tool | undefined,
  name: string,
  input: unknown,
  cwd?: string
): string {
  const parsed = tool?.inputSchema.safeParse(input)
  return tool !== undefined && parsed?.success === true ? tool.describeCall(parsed.data, cwd) : name
}

/** A label for people ("Command", "Content") and the text itself, unabridged. */
export interface ApprovalDetail {
  label: string
  text: string
}

/**
 * A failure the model can act on ("File has not been read yet…"). runTool shows its message
 * as is; any other error is shown as "<Tool> failed: <message>".
 */
export class ToolError extends CodedError {
  constructor(message: string) {
    super('refused', message)
    this.name = 'ToolError'
  }
}

export interface ToolDefinition {
  name: string
  description: string
  input_schema: { type: 'object'; [key: string]: unknown }
}

/**
 * The tool as the Messages API wants it. The same tool always gives the same bytes (zod emits
 * keys in the schema's declaration order), which the prompt cache depends on.
 */
export function toolDefinition(tool: Tool): ToolDefinition {
  // `$schema` names the JSON Schema dialect: noise for the model, so it is left out.
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.inputSchema, { io: 'input' })
  if (schema.type !== 'object') {
    throw new Error(`Tool ${tool.name}: its input schema must be an object schema`)
  }
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { ...schema, type: 'object' }
  }
}

function failureText(tool: Tool, error: unknown): string {
  if (error instanceof ToolError) return error.message
  if (error instanceof Error) {
    // Errors that name their file (a refused path, a write the disk refused) stand as they are;
    // others get the tool's name.
    return error.name === 'PathOutsideWorkspaceError' || error.name === 'WriteFailedError'
      ? error.message
      : `${tool.name} failed: ${error.message}`
  }
  return `${tool.name} failed: ${String(error)}`
}

/**
 * Validates `rawInput` against the tool's schema and runs it. Never throws: invalid input,
 * a cancelled call and a failing tool all become an isError output naming the problem.
 */
export async function runTool(
  tool: Tool,
  rawInput: unknown,
  ctx: ToolContext
): Promise<ToolOutput> {
  const parsed = tool.inputSchema.safeParse(rawInput)
  if (!parsed.success) {
    return {
      isError: true,
      content: `Invalid input for ${tool.name}:\n${z.prettifyError(parsed.error)}`
    }
  }
  if (ctx.signal.aborted) {
    return { isError: true, content: `${tool.name} was cancelled before it ran.` }
  }
  try {
    return await tool.execute(parsed.data, ctx)
  } catch (error) {
    return { isError: true, content: failureText(tool, error) }
  }
}
