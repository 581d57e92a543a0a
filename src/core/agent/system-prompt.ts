// The system prompt: who the agent is, the workspace, today's date and the tools it has. It is the
// first cached block of every request, so it depends on nothing that changes within a day: the
// same workspace, date and tool list always give the same bytes.
import type { ToolDefinition } from './tools/tool'

export interface SystemPromptInfo {
  cwd: string
  /** YYYY-MM-DD, the user's local date. */
  date: string
  tools: readonly ToolDefinition[]
  platform: string
}

/** The local calendar date of `at` as YYYY-MM-DD. */
export function localDate(at: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`
}

export function buildSystemPrompt(info: SystemPromptInfo): string {
  const names = info.tools.map((t) => t.name)
  const lines = [
    'You are a coding agent working in the user’s project through the tools below. Do what the user asks, no more; say briefly what you did.',
    '',
    `Workspace: ${info.cwd}`,
    `Platform: ${info.platform}`,
    `Today’s date: ${info.date}`,
    `Tools: ${names.join(', ')}`,
    '',
    '- Relative paths resolve against the workspace. Paths outside it are refused unless the user allowed them.',
    '- Read a file before you Edit or Write it; a new file needs no Read.',
    '- The user can rewind the conversation and the files to any earlier prompt, so prefer small, separate steps.'
  ]
  if (names.includes('checkpoint')) {
    lines.push(
      '- Before an exploration whose details you will not need afterwards, call checkpoint; when it is done, call rewind with a concise report. Always rewind before ending your turn.'
    )
  }
  return lines.join('\n')
}
