// Sub-agents of sub-agents, on real runs nine deep: Codex CLI 0.171.0 with `agents.max_depth = 9`
// (test/fixtures/codex-subagents/nested: make/make.sh OUT nested) and OpenCode 1.18.33 with
// `subagent_depth: 9` (test/fixtures/opencode/nested: make/make.sh OUT nested). In each the session
// started level 1, and each level N started level N+1 from its own transcript. A run hangs under
// the call in its parent run's transcript, runs are read as deep as MAX_SUBAGENT_DEPTH (8) and no
// deeper, and the session list leaves out every run drawn: level 9, past the bound, is listed.
// And Claude Code 2.1.197's, two deep (test/fixtures/claude-code/nested-subagents: its own bound
// is 5), whose files lie side by side in the session's subagents/ folder.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_SUBAGENT_DEPTH } from '../../src/core/session/foreign/subagent-nesting'
import type { SubagentRun } from '../../src/core/session/foreign/types'
import { type LoadedSession, readSessionFile } from '../../src/core/session/load'
import { Sources } from '../../src/core/sources/discovery'
import { sourceHomes } from '../../src/core/sources/homes'
import { buildSessionGraph, indexTurns, subagentNodes } from '../../src/core/views/session-graph'
import type { NodeDetail, SessionGraph } from '../../src/shared/views'
import { copyFixture } from './cc-fixtures'
import { type ToolHome, codexHome, openCodeHome, openCodeJsonHome } from './tool-homes'
import { studioOver } from './tool-studio'

/** The session's thread, then level 1's … level 9's, in the order Codex made them. */
const CODEX_THREADS = [
  '01a23c18-6395-77a2-9850-0aec6af5a6ad',
  '01a23c18-64c0-7c32-b0e3-0e531ebbc491',
  '01a23c18-655a-72e1-bd57-db98b4c95bca',
  '01a23c18-65b2-7eb0-b0dc-87887acd5a96',
  '01a23c18-6645-7370-b73b-291c7806c3b8',
  '01a23c18-66a1-7672-ae91-a381a62a8f3b',
  '01a23c18-66ff-7a31-a9ae-0c342640dbed',
  '01a23c18-676c-7f02-a869-9dd030d17300',
  '01a23c18-6837-7e61-a9ba-c61fdffad831',
  '01a23c18-68a8-72d3-92b3-05d8aa1bc616'
]
/** The session, then level 1's … level 9's child sessions (task/session-list.txt lists the first). */
const OPENCODE_SESSIONS = [
  'ses_dc3e71b98ffeqzQ2SSohqUfWc6',
  'ses_dc3e70840ffeAT0LBgMIIFp0gn',
  'ses_dc3e70605ffeSQNVUJ31XEUdHU',
  'ses_dc3e70509ffeeLpCl52E2DIYg5',
  'ses_dc3e70427ffeCImJFpnVceiiBo',
  'ses_dc3e70269ffezOmZSPzhCBCqxj',
  'ses_dc3e7014cffeZxtUbICUnwYwUe',
  'ses_dc3e6ff91ffenzJhgPFCbbFVyf',
  'ses_dc3e6fd0cffebdMryZR0Z5OVb7',
  'ses_dc3e6fbcdffeLeBKcLatEJGt47'
]

const codexRollout = (toolHome: string, thread: string) => {
  const day = join(toolHome, 'sessions', '2026', '12', '03')
  const name = readdirSync(day).find((f) => f.endsWith(`-${thread}.jsonl`))
  if (name === undefined) throw new Error(`no rollout ${thread}`)
  return join(day, name)
}

/** The tool call a run hangs under, as the transcript holding it has it. */
function callOf(loaded: LoadedSession, run: SubagentRun): unknown {
  const holder =
    run.parentRunId === null
      ? loaded.tree
      : loaded.subagents.find((r) => r.id === run.parentRunId)?.tree
  const record = holder?.get(run.parentUuid ?? '')
  return record?.type === 'assistant' ? record.message.content : null
}

/**
 * Levels 1 to 8 drawn, each under the call in the transcript of the level above that started
 * it (`tool`: the name of that call), and level 9 not; the graph hangs each level's node under
 * the node of the level above, level 1's under the session's turn.
 */
function expectTheLevels(loaded: LoadedSession, ids: readonly string[], tool: string): void {
  expect(loaded.problems).toEqual([])
  const drawn = ids.slice(1, MAX_SUBAGENT_DEPTH + 1)
  expect(loaded.subagents.map((run) => [run.id, run.parentRunId])).toEqual(
    drawn.map((id, i) => [id, i === 0 ? null : (drawn[i - 1] ?? null)])
  )
  expect(loaded.subagents.map((run) => run.title.toLowerCase())).toEqual(
    drawn.map((_, i) => expect.stringContaining(`level ${i + 1}`))
  )
  for (const run of loaded.subagents) {
    expect(callOf(loaded, run)).toEqual([
      expect.objectContaining({ type: 'tool_use', id: run.toolUseId, name: tool })
    ])
  }
  const index = indexTurns(loaded.tree)
  const graph = buildSessionGraph(loaded.tree, ids[0] ?? '', index)
  const nodes = subagentNodes(loaded.subagents, index, graph.nodes)
  const first = loaded.subagents[0]
  expect(nodes.map((n) => n.parentId)).toEqual([
    index.owner.get(first?.parentUuid ?? ''),
    ...drawn.slice(0, -1).map((id) => `subagent:${id}`)
  ])
}

/** The ids of the sessions of one tool the list shows for a workspace. */
function listedIds(
  home: string,
  env: Record<string, string>,
  workspace: string,
  source: string
): string[] {
  const sources = new Sources({ home, homes: sourceHomes(home, env), persist: false })
  return sources
    .workspaceSessions(workspace)
    .filter((s) => s.source === source)
    .map((s) => s.sessionId)
    .sort()
}

/** The deepest level, past the bound: listed beside the session, as no run draws it. */
const listedBeside = (ids: readonly string[]) =>
  [ids[0], ids[MAX_SUBAGENT_DEPTH + 1]].map(String).sort()

async function expectLevelTwoInTheStudio(tool: ToolHome, file: string, ids: readonly string[]) {
  const s = await studioOver(tool, tool.env)
  await s.value('session:openFile', { file })
  const graph = await s.value<SessionGraph>('session:graph')
  const runs = graph.nodes.filter((n) => n.kind === 'subagent')
  expect(runs).toHaveLength(MAX_SUBAGENT_DEPTH)
  const two = runs.find((n) => n.id === `subagent:${ids[2]}`)
  expect(two?.parentId).toBe(`subagent:${ids[1]}`)
  const detail = await s.value<NodeDetail>('session:node', { nodeId: two?.id })
  expect(detail.entries.map((e) => JSON.stringify(e.content)).at(-1)).toContain('Level 2 is done.')
}

describe('Codex CLI: a sub-agent’s own sub-agents', () => {
  it('hangs each level under the spawn_agent call of the level above, eight deep', () => {
    const codex = codexHome('workspace-after', 'codex-subagents/nested')
    const loaded = readSessionFile(codexRollout(codex.toolHome, CODEX_THREADS[0] ?? ''))
    expectTheLevels(loaded, CODEX_THREADS, 'spawn_agent')
    // Each run's own thread, read as a session is.
    expect(loaded.subagents.map((run) => run.tree.header?.sessionId)).toEqual(
      CODEX_THREADS.slice(1, MAX_SUBAGENT_DEPTH + 1)
    )
  })

  it('lists the session and the level past the bound, no thread drawn under it', () => {
    const codex = codexHome('workspace-after', 'codex-subagents/nested')
    expect(listedIds(codex.home, codex.env, codex.ran, 'codex')).toEqual(
      listedBeside(CODEX_THREADS)
    )
  })

  it('in the studio: level 2 is a node under level 1’s, holding its transcript', async () => {
    const codex = codexHome('workspace-after', 'codex-subagents/nested')
    const file = codexRollout(codex.toolHome, CODEX_THREADS[0] ?? '')
    await expectLevelTwoInTheStudio(codex, file, CODEX_THREADS)
  })
})

describe('OpenCode: a child session’s own children', () => {
  it('in the database: each level under the task call of the level above, eight deep', () => {
    const oc = openCodeHome('workspace-after', 'opencode/nested')
    expectTheLevels(readSessionFile(`${oc.db}#${OPENCODE_SESSIONS[0]}`), OPENCODE_SESSIONS, 'task')
    expect(listedIds(oc.home, oc.env, oc.ran, 'opencode')).toEqual(listedBeside(OPENCODE_SESSIONS))
  })

  it('in the JSON storage: the same levels, and the same list', () => {
    const base = codexHome().base
    const dataHome = join(base, 'opencode')
    const workspace = join(base, 'ws')
    const files = OPENCODE_SESSIONS.map((session) => {
      const written = openCodeJsonHome(workspace, dataHome, session, 'opencode/nested')
      written.messages.forEach(written.write)
      return written.sessionFile
    })
    expectTheLevels(readSessionFile(files[0] ?? ''), OPENCODE_SESSIONS, 'task')
    const env = { REWIND_STUDIO_OPENCODE_HOME: dataHome, REWIND_STUDIO_HOME: join(base, 'rs') }
    expect(listedIds(join(base, 'rs'), env, workspace, 'opencode')).toEqual(
      listedBeside(OPENCODE_SESSIONS)
    )
  })

  it('in the studio: level 2 is a node under level 1’s, holding its transcript', async () => {
    const oc = openCodeHome('workspace-after', 'opencode/nested')
    await expectLevelTwoInTheStudio(oc, `${oc.db}#${OPENCODE_SESSIONS[0]}`, OPENCODE_SESSIONS)
  })
})

describe('Claude Code: a sub-agent’s own sub-agent', () => {
  /** The outer agent's and the inner one's (their meta files: spawnDepth 1 and 2). */
  const OUTER = 'ab0059ff349c9c4f5'
  const INNER = 'a3851787dcaf93475'

  it('hangs the inner agent under the Agent call in the outer agent’s transcript', () => {
    const cc = copyFixture('nested-subagents')
    const loaded = readSessionFile(cc.file)
    expect(loaded.problems).toEqual([])
    expect(
      loaded.subagents.map((run) => [run.id, run.parentRunId, run.title, run.toolUseId])
    ).toEqual([
      [OUTER, null, 'outer agent', 'toolu_fake_1'],
      [INNER, OUTER, 'inner agent', 'toolu_fake_2']
    ])
    for (const run of loaded.subagents) {
      expect(callOf(loaded, run)).toEqual([
        expect.objectContaining({ type: 'tool_use', id: run.toolUseId, name: 'Agent' })
      ])
    }
    const inner = loaded.subagents[1]
    // Its own transcript: its prompt, and the answer after its Write.
    expect(inner?.tree.checkpoints().map((c) => c.prompt)).toEqual(['INNER: write inner.txt'])
    const answer = inner?.tree.get(inner.tree.leafUuid ?? '')
    expect(answer?.type === 'assistant' ? answer.message.content : null).toEqual([
      expect.objectContaining({ text: 'Inner agent: inner.txt written.' })
    ])
    const index = indexTurns(loaded.tree)
    const graph = buildSessionGraph(loaded.tree, cc.sessionId, index)
    const nodes = subagentNodes(loaded.subagents, index, graph.nodes)
    expect(nodes.map((n) => n.parentId)).toEqual([
      index.owner.get(loaded.subagents[0]?.parentUuid ?? ''),
      `subagent:${OUTER}`
    ])
  })
})
