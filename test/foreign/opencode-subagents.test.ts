// OpenCode's sub-agents, on the real run of test/fixtures/opencode/task (make/make.sh OUT task,
// OpenCode 1.18.33): one step called the `task` tool twice at once, and each sub-agent ran as a
// child session (its parentID the session's id) that wrote a file. Read from the database and
// from the JSON storage of older versions (the same objects, laid out from the real exports),
// each child is a run of its own under the task call that started it, found by the id the part
// names or else by time, read as a session is read; the session list shows the session and not
// its children, as OpenCode's own `session list` (task/session-list.txt) does.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type LoadedSession, readSessionFile } from '../../src/core/session/load'
import { Sources } from '../../src/core/sources/discovery'
import { sourceHomes } from '../../src/core/sources/homes'
import { buildSessionGraph, indexTurns, subagentNodes } from '../../src/core/views/session-graph'
import type { NodeDetail, SessionGraph } from '../../src/shared/views'
import {
  OPENCODE_NOTES_AGENT,
  OPENCODE_TASKS,
  OPENCODE_TODO_AGENT,
  codexHome,
  openCodeHome,
  openCodeJsonHome
} from './tool-homes'
import { studioOver } from './tool-studio'

/** The step's two task calls (export-ses_dc534c336ffemFKiONsBx0ObVM.json): part and call ids. */
const NOTES_CALL = { part: 'prt_23acb4570001cF7auvx7KqTg6O', call: 'toolu_fake_3' }
const TODO_CALL = { part: 'prt_23acb45be001Pd2ycZ6MwG9V5t', call: 'toolu_fake_4' }

/** What a reading gives of its sub-agents, and where the graph hangs them. */
function subagentsOf(loaded: LoadedSession) {
  const index = indexTurns(loaded.tree)
  const graph = buildSessionGraph(loaded.tree, OPENCODE_TASKS, index)
  const nodes = subagentNodes(loaded.subagents, index, graph.nodes)
  return {
    runs: loaded.subagents.map((run) => [run.id, run.title, run.toolUseId, run.parentUuid]),
    prompts: loaded.subagents.map((run) =>
      run.tree.checkpoints().map((c) => [c.prompt, c.filesChanged])
    ),
    // Each run's node hangs under the node of the turn holding its call.
    hung: nodes.map((n) => [n.kind, n.title, n.parentId === index.owner.get(NOTES_CALL.part)]),
    callers: loaded.subagents.map((run) => {
      const record = loaded.tree.get(run.parentUuid ?? '')
      return record?.type === 'assistant' ? JSON.stringify(record.message.content) : null
    })
  }
}

const EXPECTED_RUNS = [
  [OPENCODE_NOTES_AGENT, 'write the notes', NOTES_CALL.call, NOTES_CALL.part],
  [OPENCODE_TODO_AGENT, 'write the todo', TODO_CALL.call, TODO_CALL.part]
]

function expectTheTwoRuns(loaded: LoadedSession): void {
  expect(loaded.problems).toEqual([])
  expect(loaded.tree.checkpoints().map((c) => c.prompt)).toEqual(['"delegate the notes"'])
  const seen = subagentsOf(loaded)
  expect(seen.runs).toEqual(EXPECTED_RUNS)
  // Read as a session is: its prompt, and the files its step's patch names, from OpenCode's
  // snapshots (the notes agent's names todo.txt too: the other agent wrote it meanwhile, and a
  // snapshot is of the whole workspace).
  expect(seen.prompts).toEqual([
    [['Write notes.txt saying hello.', 2]],
    [['Write todo.txt saying later.', 1]]
  ])
  expect(seen.hung).toEqual([
    ['subagent', 'write the notes', true],
    ['subagent', 'write the todo', true]
  ])
  expect(seen.callers).toEqual([
    expect.stringContaining('"name":"task"'),
    expect.stringContaining('"name":"task"')
  ])
  expect(seen.callers[0]).toContain(NOTES_CALL.call)
  expect(seen.callers[1]).toContain(TODO_CALL.call)
}

/** The ids of the OpenCode sessions the list shows for the workspace the run was in. */
function listedIds(home: string, env: Record<string, string>, workspace: string): string[] {
  const sources = new Sources({ home, homes: sourceHomes(home, env), persist: false })
  return sources
    .workspaceSessions(workspace)
    .filter((s) => s.source === 'opencode')
    .map((s) => s.sessionId)
}

describe("OpenCode's sub-agents (child sessions of the task tool)", () => {
  it('in the database: each child is a run under the task call that started it, and not listed', () => {
    const oc = openCodeHome('workspace-after', 'opencode/task')
    expectTheTwoRuns(readSessionFile(`${oc.db}#${OPENCODE_TASKS}`))
    expect(listedIds(oc.home, oc.env, oc.ran)).toEqual([OPENCODE_TASKS])
    const sources = new Sources({
      home: oc.home,
      homes: sourceHomes(oc.home, oc.env),
      persist: false
    })
    expect(sources.projects().find((p) => p.cwd === oc.ran)?.sessions).toBe(1)
  })

  it('in the studio: the sub-agents are nodes of the turn that ran them, each its transcript', async () => {
    const oc = openCodeHome('workspace-after', 'opencode/task')
    const s = await studioOver(oc, oc.env)
    await s.value('session:openFile', { file: `${oc.db}#${OPENCODE_TASKS}` })
    const graph = await s.value<SessionGraph>('session:graph')
    const runs = graph.nodes.filter((n) => n.kind === 'subagent')
    const turn = graph.nodes.find((n) => n.kind !== 'subagent')
    expect(runs.map((n) => [n.title, n.parentId])).toEqual([
      ['write the notes', turn?.id],
      ['write the todo', turn?.id]
    ])
    const detail = await s.value<NodeDetail>('session:node', { nodeId: runs[1]?.id })
    const text = (e: NodeDetail['entries'][number]) => JSON.stringify(e.content)
    expect(detail.entries.filter((e) => e.isPrompt).map(text)).toEqual([
      expect.stringContaining('Write todo.txt saying later.')
    ])
    expect(detail.entries.map(text).at(-1)).toContain('todo.txt written.')
  })

  /** OpenCode's JSON storage with the run's session and its two children, written whole. */
  function jsonStorage() {
    const base = codexHome().base
    const dataHome = join(base, 'opencode')
    const workspace = join(base, 'ws')
    const write = (session: string) => {
      const written = openCodeJsonHome(workspace, dataHome, session, 'opencode/task')
      written.messages.forEach(written.write)
      return written.sessionFile
    }
    const sessionFile = write(OPENCODE_TASKS)
    const children = [write(OPENCODE_NOTES_AGENT), write(OPENCODE_TODO_AGENT)]
    const env = { REWIND_STUDIO_OPENCODE_HOME: dataHome, REWIND_STUDIO_HOME: join(base, 'rs') }
    return { sessionFile, children, workspace, home: join(base, 'rs'), env, dataHome }
  }

  it('in the JSON storage: the same runs, and the list shows the session alone', () => {
    const j = jsonStorage()
    expectTheTwoRuns(readSessionFile(j.sessionFile))
    expect(listedIds(j.home, j.env, j.workspace)).toEqual([OPENCODE_TASKS])
  })

  it('hangs a child under its call by time when the part names no session', () => {
    const j = jsonStorage()
    // A task part as OpenCode has it before the child starts (no metadata yet), for both calls:
    // each child goes to the call that started nearest its creation.
    const storage = join(j.dataHome, 'storage')
    for (const { part } of [NOTES_CALL, TODO_CALL]) {
      const file = join(storage, 'part', 'msg_23acb40f3001wLGDMeMepDkcHg', `${part}.json`)
      const value = JSON.parse(readFileSync(file, 'utf8')) as { state: Record<string, unknown> }
      delete value.state.metadata
      writeFileSync(file, JSON.stringify(value))
    }
    expect(subagentsOf(readSessionFile(j.sessionFile)).runs).toEqual(EXPECTED_RUNS)
  })

  it('reads hostile and missing rows without throwing: what is whole is still drawn', () => {
    const j = jsonStorage()
    const project = join(j.sessionFile, '..')
    const parentID = OPENCODE_TASKS
    const directory = j.workspace
    const junk: Record<string, unknown> = {
      // not JSON, no id, its own parent, a parent chain that loops, messages that are no objects
      ses_junk1: 'not json {',
      ses_junk2: JSON.stringify({ parentID, time: { created: 'soon' } }),
      ses_self: JSON.stringify({ id: 'ses_self', parentID: 'ses_self', directory }),
      ses_loopA: JSON.stringify({ id: 'ses_loopA', parentID: 'ses_loopB', directory }),
      ses_loopB: JSON.stringify({ id: 'ses_loopB', parentID: 'ses_loopA', directory }),
      ses_empty: JSON.stringify({ id: 'ses_empty', parentID, directory, title: 7, time: {} })
    }
    for (const [id, text] of Object.entries(junk))
      writeFileSync(join(project, `${id}.json`), String(text))
    const messages = join(j.dataHome, 'storage', 'message', 'ses_empty')
    mkdirSync(messages, { recursive: true })
    writeFileSync(join(messages, 'msg_1.json'), '[1,2]')
    writeFileSync(join(messages, 'msg_2.json'), JSON.stringify({ id: 'msg_2', role: 'user' }))
    const loaded = readSessionFile(j.sessionFile)
    const runs = subagentsOf(loaded).runs
    // The two real runs under their calls; the child with no time or prompt, named by no call,
    // as a root (first: a child with no creation time sorts first).
    // (ses_junk2 names no id: its file's name is its id, as for any session of the layout).
    expect(runs).toEqual([
      ['ses_empty', 'sub-agent', null, null],
      ['ses_junk2', 'sub-agent', null, null],
      ...EXPECTED_RUNS
    ])
    // Listed: the session, and what is drawn as no one's sub-agent (a loop, its own parent).
    expect(listedIds(j.home, j.env, j.workspace).sort()).toEqual(
      [OPENCODE_TASKS, 'ses_loopA', 'ses_loopB', 'ses_self'].sort()
    )
  })
})
