// Anthropic Messages content blocks, as the session stores them and the renderer shows them.
// Unknown fields are kept (`looseObject`) so a newer API block round-trips through the log.
import * as z from 'zod'

export const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() })
export const ThinkingBlock = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional()
})
export const RedactedThinkingBlock = z.looseObject({
  type: z.literal('redacted_thinking'),
  data: z.string()
})
export const ToolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown()
})
export const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  is_error: z.boolean().optional()
})
/** Any other block type (image, document, server tools...): kept verbatim, shown by its type. */
export const OtherBlock = z.looseObject({ type: z.string() })

export const ContentBlock = z.union([
  TextBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolUseBlock,
  ToolResultBlock,
  OtherBlock
])

export const MessageContent = z.union([z.string(), z.array(ContentBlock)])

export type TextBlock = z.infer<typeof TextBlock>
export type ThinkingBlock = z.infer<typeof ThinkingBlock>
export type ToolUseBlock = z.infer<typeof ToolUseBlock>
export type ToolResultBlock = z.infer<typeof ToolResultBlock>
export type ContentBlock = z.infer<typeof ContentBlock>
export type MessageContent = z.infer<typeof MessageContent>

export const RewindMode = z.enum(['both', 'conversation', 'code'])
export type RewindMode = z.infer<typeof RewindMode>

export const PermissionMode = z.enum(['default', 'acceptEdits', 'bypassPermissions'])
export type PermissionMode = z.infer<typeof PermissionMode>
