// Gemini CLI's sub-agents, on the real run of test/fixtures/gemini-cli-subagents (make/make.sh,
// Gemini CLI 0.61.0): one prompt whose answer called invoke_agent (the generalist agent), which
// recorded a chat of its own in chats/<session id>/<agent id>.jsonl (a read_file, then
// complete_task). That chat is read as a session is, into a run of its own under the invoke_agent
// call that named it (its agentId).
import { cpSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { buildSessionGraph, indexTurns, subagentNodes } from '../../src/core/views/session-graph'
import { TOOL_FIXTURES } from './tool-homes'

/** The session's id and its sub-agent's (README.md there). */
const SESSION = 'cabc1f6b-cab1-4f9f-9147-1835cbc7902a'
const AGENT = '02fcc3bd-6d93-479f-96ae-cd30e9257cdf'

/** A copy of the run's chats folder, and its session's chat. */
function chats(): { dir: string; session: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'rs-gemini-sub-')), 'chats')
  cpSync(join(TOOL_FIXTURES, 'gemini-cli-subagents', 'gemini-home', 'tmp', 'ws', 'chats'), dir, {
    recursive: true
  })
  const name = readdirSync(dir).find((f) => f.startsWith('session-'))
  if (name === undefined) throw new Error('no session chat')
  return { dir, session: join(dir, name) }
}

describe('Gemini CLI sub-agents', () => {
  it('reads the sub-agent chat under the invoke_agent call that named it', () => {
    const { session } = chats()
    const loaded = readSessionFile(session)
    expect(loaded.format).toBe('gemini-cli')
    expect(loaded.problems).toEqual([])
    expect(loaded.tree.checkpoints().map((c) => c.prompt)).toEqual(['please delegate the count'])
    expect(loaded.subagents.map((run) => [run.id, run.title, run.source])).toEqual([
      [AGENT, 'count the words in the README', `${AGENT}.jsonl`]
    ])
    const run = loaded.subagents[0]
    if (run === undefined) throw new Error('no run')
    const caller = loaded.tree.get(run.parentUuid ?? '')
    expect(caller?.type === 'assistant' ? caller.message.content : null).toEqual([
      expect.objectContaining({ type: 'tool_use', id: run.toolUseId, name: 'invoke_agent' })
    ])
    const index = indexTurns(loaded.tree)
    const graph = buildSessionGraph(loaded.tree, SESSION, index)
    const nodes = subagentNodes(loaded.subagents, index, graph.nodes)
    expect(nodes.map((n) => n.kind)).toEqual(['subagent'])
    expect(nodes[0]?.parentId).toBe(index.owner.get(run.parentUuid ?? ''))
    // Its own chat, read as a session is: its prompt, its read_file and complete_task calls.
    expect(run.tree.header?.sessionId).toBe(AGENT)
    expect(run.tree.checkpoints().map((c) => c.prompt)).toEqual(['count the words in the README'])
    const calls = run.tree
      .pathTo(run.tree.leafUuid)
      .flatMap((r) =>
        r.type === 'assistant' && Array.isArray(r.message.content) ? r.message.content : []
      )
      .flatMap((b) => (b.type === 'tool_use' ? [b.name] : []))
    expect(calls).toEqual(['read_file', 'complete_task'])
  })
})
