// Gemini CLI's sub-agents: the model calls `invoke_agent {agent_name, prompt}` (0.61.0; the system
// prompt lists the agents: codebase_investigator, generalist, those of .gemini/agents), and the
// sub-agent records a chat of its own, `kind: "subagent"`, in a folder named by the session's id
// beside the session's chat: `chats/<session id>/<agent id>.jsonl` (packages/core
// ChatRecordingService.initialize: `chatsDir/<parentSessionId>/<sessionId>.jsonl` for a subagent;
// LocalAgentExecutor gives it its agentId as the sessionId). The call that started it names it:
// the session's toolCalls record keeps the tool response's `data.agentId` as `agentId`
// (GeminiClient.recordCompletedToolCalls). test/fixtures/gemini-cli-subagents, made by the real
// CLI, shows both. The reader (gemini-cli.ts) feeds the calls it draws; each named chat is read as
// a session is, into a tree of its own, under its call.
import { dirname, join } from 'node:path'
import { isObject, stringOrNull, type Json } from '../json'
import type { SessionTree } from '../tree'
import { SubagentFiles } from './subagent-files'
import type { SubagentRun } from './types'

/** The most sub-agent chats of one session read. */
const MAX_SUBAGENTS = 500

/** An id as Gemini CLI names files by it (its sanitizeFilenamePart leaves these as they are). */
const FILE_ID = /^[A-Za-z0-9_-]{1,128}$/

interface AgentCall {
  agentId: string
  callId: string
  /** The drawn record holding the call. */
  uuid: string
  title: string
}

export class GeminiSubagents {
  private folder: string | null = null
  private readonly calls: AgentCall[] = []
  private readonly files: SubagentFiles

  constructor(
    /** The session's chat file (null for text read from elsewhere: no sub-agents). */
    private readonly file: string | null,
    /** A sub-agent's chat read as a session is (gemini-cli.ts's mapper). */
    readChat: (file: string) => SessionTree | null
  ) {
    // A sub-agent's chat starts none of its own: 0.61.0 gives a sub-agent no tool of the agent
    // kind (LocalAgentExecutor.create skips them), so it has no invoke_agent.
    this.files = new SubagentFiles((chat) => {
      const tree = readChat(chat)
      return tree === null ? null : { tree }
    })
  }

  /** The session's id (its header's): its sub-agents' chats are in the folder it names. */
  session(sessionId: string): void {
    if (this.file !== null && FILE_ID.test(sessionId))
      this.folder = join(dirname(this.file), sessionId)
  }

  /** The tool calls of a message drawn as the record `uuid`: those naming an agentId are kept. */
  sawCalls(uuid: string, calls: readonly Json[]): void {
    for (const call of calls) {
      const agentId = stringOrNull(call.agentId)
      if (agentId === null || !FILE_ID.test(agentId) || this.calls.length >= MAX_SUBAGENTS) continue
      if (this.calls.some((c) => c.agentId === agentId)) continue
      const args = isObject(call.args) ? call.args : {}
      this.calls.push({
        agentId,
        callId: stringOrNull(call.id) ?? '',
        uuid,
        title:
          stringOrNull(args.prompt) ??
          stringOrNull(call.description) ??
          stringOrNull(args.agent_name) ??
          'sub-agent'
      })
    }
  }

  /** Each called agent whose chat is found, under the call that started it. */
  runs(): SubagentRun[] {
    const folder = this.folder
    if (folder === null) return []
    return this.calls.flatMap((call) => {
      const chat = this.files.transcript(call.agentId, join(folder, `${call.agentId}.jsonl`))
      if (chat === null) return []
      return [
        {
          id: call.agentId,
          toolUseId: call.callId,
          parentUuid: call.uuid,
          parentRunId: null,
          title: call.title,
          source: `${call.agentId}.jsonl`,
          tree: chat.tree
        }
      ]
    })
  }
}
