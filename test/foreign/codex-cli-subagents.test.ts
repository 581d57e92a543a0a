// Codex CLI's sub-agents, on the real run of test/fixtures/codex-subagents (make/make.sh, Codex
// 0.171.0): one prompt whose turn called spawn_agent, which ran the sub-agent as a thread of its
// own (a rollout beside the session's naming its parent), then wait_agent. The sub-agent's rollout
// is read as a session is, into a run of its own under the spawn_agent call that started it, and
// is not listed beside the session (Codex's own picker lists no sub-agent thread).
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { Sources } from '../../src/core/sources/discovery'
import { sourceHomes } from '../../src/core/sources/homes'
import { buildSessionGraph, indexTurns, subagentNodes } from '../../src/core/views/session-graph'
import type { NodeDetail, SessionGraph } from '../../src/shared/views'
import { codexHome } from './tool-homes'
import { studioOver } from './tool-studio'

/** The session's thread and its sub-agent's (README.md there). */
const SESSION = '01a23af9-211b-7a61-abb9-2d9c3ded1270'
const SUBAGENT = '01a23af9-21b3-7cc2-9b92-3609812c9d9d'

const rollout = (toolHome: string, thread: string) => {
  const day = join(toolHome, 'sessions', '2026', '12', '03')
  const name = readdirSync(day).find((f) => f.endsWith(`-${thread}.jsonl`))
  if (name === undefined) throw new Error(`no rollout ${thread}`)
  return join(day, name)
}

describe('Codex CLI sub-agents', () => {
  it('reads the sub-agent thread under the spawn_agent call that started it', () => {
    const codex = codexHome('workspace-after', 'codex-subagents')
    const loaded = readSessionFile(rollout(codex.toolHome, SESSION))
    expect(loaded.problems).toEqual([])
    expect(loaded.tree.checkpoints().map((c) => c.prompt)).toEqual(['please delegate the count'])
    expect(loaded.subagents.map((run) => [run.id, run.title, run.toolUseId, run.source])).toEqual([
      [
        SUBAGENT,
        'count the words in the README',
        'call_1_0',
        `rollout-2026-12-03T08-15-35-${SUBAGENT}.jsonl`
      ]
    ])
    const run = loaded.subagents[0]
    if (run === undefined) throw new Error('no run')
    // The record it hangs under is the spawn_agent call, and the graph puts it under that turn.
    const caller = loaded.tree.get(run.parentUuid ?? '')
    expect(caller?.type === 'assistant' ? caller.message.content : null).toEqual([
      expect.objectContaining({ type: 'tool_use', id: 'call_1_0', name: 'spawn_agent' })
    ])
    const index = indexTurns(loaded.tree)
    const graph = buildSessionGraph(loaded.tree, SESSION, index)
    const nodes = subagentNodes(loaded.subagents, index, graph.nodes)
    expect(nodes.map((n) => n.kind)).toEqual(['subagent'])
    expect(nodes[0]?.parentId).toBe(index.owner.get(run.parentUuid ?? ''))
    // Its own thread, read as a session is: its header, and the answer it gave (its task came as
    // an agent_message, kept raw: no prompt of a person's).
    expect(run.tree.header?.sessionId).toBe(SUBAGENT)
    expect(run.tree.pathTo(run.tree.leafUuid).map((r) => r.type)).toEqual(['assistant'])
    const answer = run.tree.pathTo(run.tree.leafUuid)[0]
    expect(answer?.type === 'assistant' ? answer.message.content : null).toEqual([
      { type: 'text', text: 'There are 3 words in the README.' }
    ])
  })

  it('lists the session and not its sub-agent thread, unless the session is gone', () => {
    const codex = codexHome('workspace-after', 'codex-subagents')
    const listed = () => {
      const sources = new Sources({
        home: codex.home,
        homes: sourceHomes(codex.home, codex.env),
        persist: false
      })
      return {
        ids: sources.workspaceSessions(codex.ran).map((s) => s.sessionId),
        counted: sources.projects().find((p) => p.cwd === codex.ran)?.sessions
      }
    }
    expect(listed()).toEqual({ ids: [SESSION], counted: 1 })
    // Without its parent a sub-agent's thread is listed, or nothing would open it.
    rmSync(rollout(codex.toolHome, SESSION))
    expect(listed()).toEqual({ ids: [SUBAGENT], counted: 1 })
  })

  it('in the studio: the sub-agent is a node of the turn that spawned it, with its transcript', async () => {
    const codex = codexHome('workspace-after', 'codex-subagents')
    const s = await studioOver(codex, codex.env)
    await s.value('session:openFile', { file: rollout(codex.toolHome, SESSION) })
    const graph = await s.value<SessionGraph>('session:graph')
    const runs = graph.nodes.filter((n) => n.kind === 'subagent')
    const turn = graph.nodes.find((n) => n.kind !== 'subagent')
    expect(runs.map((n) => [n.title, n.parentId])).toEqual([
      ['count the words in the README', turn?.id]
    ])
    const detail = await s.value<NodeDetail>('session:node', { nodeId: runs[0]?.id })
    expect(detail.entries.map((e) => JSON.stringify(e.content)).at(-1)).toContain(
      'There are 3 words in the README.'
    )
  })
})
