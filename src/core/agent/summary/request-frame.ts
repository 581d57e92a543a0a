// What a request of an agent with the built-in tools carries besides its messages (the system
// prompt, the tool definitions), for a context size measured without an agent at hand: `cli
// summarize` records the size before its compaction with it. An agent uses its own (Agent).
import { builtinTools } from '../tools'
import { toolDefinition } from '../tools/tool'
import { buildSystemPrompt, localDate } from '../system-prompt'
import type { RequestFrame } from './tokens'

export function builtinRequestFrame(cwd: string, now: Date = new Date()): RequestFrame {
  const tools = builtinTools().map(toolDefinition)
  return {
    system: buildSystemPrompt({ cwd, date: localDate(now), tools, platform: process.platform }),
    tools
  }
}
