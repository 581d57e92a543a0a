// Parallel runs through the studio's contract handlers (what the app's Try in parallel…, the Runs
// table, Stop, Adopt this run and Discard call), on real folders and a real git repository, with
// the scripted model and with the real Anthropic SDK against the loopback server: runs drawn
// beside their start node as they go, pushed as validated events, joined as branches; adopted
// through the rewind engine (preview, Undo), the runs left behind summarized when asked; stopped
// mid-way; refused where they cannot work.
import { execFileSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  existsSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { events } from '../../src/shared/contract'
import type { RunsDiskUse, RunView, RunsView } from '../../src/shared/parallel-views'
import type {
  RewindPreview,
  RewindResult,
  SessionGraph,
  TimelineEntry
} from '../../src/shared/views'
import { startMessagesServer, withServerEnv } from '../support/messages-server'
import { type Harness, studioHarnesses } from '../support/studio-harness'
import { SCRIPT, gitIn } from './fixture'

const { harness } = studioHarnesses()

/** `<home>/runs/<workspace folder>/<id>/work` of each run. */
function runWorkFolders(home: string, ids: string[]): string[] {
  const root = join(home, 'runs')
  return readdirSync(root).flatMap((folder) =>
    ids.map((id) => join(root, folder, id, 'work')).filter((dir) => existsSync(dir))
  )
}

/** What `du` counts for the folders together (GNU du: blocks, in bytes). */
function du(dirs: string[]): number {
  const total = execFileSync('du', ['-s', '-c', '-B1', ...dirs], { encoding: 'utf8' })
  return Number(total.trim().split('\n').at(-1)?.split('\t')[0])
}

const SLOW = {
  match: 'slow run',
  responses: [
    [{ type: 'tool_use', name: 'Bash', input: { command: 'echo started > slow.txt; sleep 60' } }],
    [{ type: 'text', text: 'slow done' }]
  ]
}

/** A workspace (a git repository when `git`) whose session wrote notes.md v1, then v2. */
async function twoTurns(
  git: boolean,
  settings: string[] = []
): Promise<{ h: Harness; first: string }> {
  const base = mkdtempSync(join(tmpdir(), 'rs-parallel-studio-'))
  const workspace = join(base, 'ws')
  const home = join(base, 'home')
  mkdirSync(workspace)
  writeFileSync(join(workspace, 'keep.txt'), 'the user keeps this\n')
  if (git) {
    gitIn(workspace, 'init', '-q', '-b', 'main')
    gitIn(workspace, 'add', '.')
    gitIn(workspace, 'commit', '-qm', 'first')
  }
  const script = join(base, 'script.json')
  writeFileSync(script, JSON.stringify({ rules: [...SCRIPT.rules, SLOW] }))
  const h = await harness(settings, 'bypassPermissions', `scripted:${script}`, {
    workspace,
    home
  })
  await h.sendAndWait('setup notes')
  await h.sendAndWait('second notes')
  const [first] = (await h.value<SessionGraph>('session:graph')).nodes
  return { h, first: first?.id ?? '' }
}

const list = (h: Harness) => h.value<RunsView>('parallel:list')

async function settled(h: Harness, count: number): Promise<RunView[]> {
  await expect
    .poll(
      async () => (await list(h)).runs.filter((r) => r.state !== 'running' && r.joined).length,
      {
        timeout: 30_000
      }
    )
    .toBe(count)
  return (await list(h)).runs
}

const byPrompt = (runs: RunView[], prompt: string): RunView => {
  const run = runs.find((r) => r.prompt === prompt)
  if (run === undefined) throw new Error(`no run of "${prompt}"`)
  return run
}

const notes = (h: Harness) => readFileSync(join(h.workspace, 'notes.md'), 'utf8')

describe('parallel runs in the app', () => {
  for (const git of [false, true]) {
    it(`${git ? 'in a git repository' : 'in a plain folder'}: runs from a node become its branches, compared, one adopted with the others summarized, undone`, async () => {
      const { h, first } = await twoTurns(git)
      const started = await h.value<RunsView>('parallel:start', {
        nodeId: first,
        prompts: ['try red', 'try blue'],
        check: 'cat notes.md'
      })
      expect(started.maxRuns).toBeGreaterThanOrEqual(1)
      const runs = await settled(h, 2)
      // The user's workspace was only read.
      expect(notes(h)).toBe('v2\n')
      expect(existsSync(join(h.workspace, 'red.txt'))).toBe(false)

      const red = byPrompt(runs, 'try red')
      const blue = byPrompt(runs, 'try blue')
      expect(red).toMatchObject({
        state: 'done',
        startNodeId: first,
        files: ['notes.md', 'red.txt'],
        linesAdded: 2,
        linesRemoved: 0,
        check: { command: 'cat notes.md', exitCode: 0 }
      })
      expect(red.check?.tail).toContain('red')
      expect(blue).toMatchObject({ state: 'done', files: ['blue.txt'] })
      // Each run is a branch of the start node: its first node a child of it.
      const graph = await h.value<SessionGraph>('session:graph')
      for (const run of [red, blue]) {
        const node = graph.nodes.find((n) => n.id === run.nodeId)
        expect(node).toMatchObject({ parentId: first, onActivePath: false })
      }
      // Every page was told, in the contract's shape.
      // Pushes are coalesced (one per 200 ms): the last may land after the list said all ended.
      await expect.poll(() => h.events.some((e) => e.event === 'parallel:runs')).toBe(true)
      const pushed = h.events.filter((e) => e.event === 'parallel:runs')
      for (const e of pushed)
        expect(events['parallel:runs'].safeParse(e.payload).success).toBe(true)

      // The disk their workspaces take, as du counts it.
      const use = await h.value<RunsDiskUse>('parallel:diskUse', { group: red.group })
      expect(use.workspaces).toBe(2)
      expect(use.bytes).toBe(du(runWorkFolders(h.home, [red.id, blue.id])))

      const preview = await h.value<RewindPreview>('parallel:adoptPreview', { runId: red.id })
      // notes.md back to v1 plus the run's line; red.txt new here.
      expect(preview.restore.map((f) => f.path)).toContain('notes.md')
      expect([...preview.restore, ...preview.recreate].map((f) => f.path)).toContain('red.txt')
      expect(preview.conflicts).toEqual([])
      const result = await h.value<RewindResult>('parallel:adopt', {
        runId: red.id,
        summary: { mode: 'summarize' }
      })
      expect(notes(h)).toBe('v1\nred\n')
      expect(readFileSync(join(h.workspace, 'red.txt'), 'utf8')).toBe('red\n')
      expect(readFileSync(join(h.workspace, 'keep.txt'), 'utf8')).toBe('the user keeps this\n')
      // The branch left (turn 2) and the other run are summarized onto the run's end.
      const after = await h.value<SessionGraph>('session:graph')
      const summaries = after.nodes.filter((n) => n.kind === 'branch_summary' && n.onActivePath)
      expect(summaries).toHaveLength(2)
      expect(after.leafUuid).toBe(result.summaryUuid)
      // The summaries change no file: both markers on the last (the UI sweep of stop 46 found the
      // files' on the run's turn above them).
      expect(after.filesAt.nodeId).toBe(result.summaryUuid)
      const links = after.summaryLinks.map((l) => l.from)
      expect(links).toContain(blue.nodeId)
      const adopted = byPrompt((await list(h)).runs, 'try red')
      expect(adopted.removed).toBe('adopted')

      // The timeline names the move an adopt, not a continue.
      const timeline = await h.value<TimelineEntry[]>('timeline:list')
      expect(timeline.at(-1)).toMatchObject({ kind: 'continue', label: 'Adopt run "try red"' })
      // Adopting it again is refused, nothing changed.
      const again = await h.call('parallel:adopt', { runId: red.id })
      expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } })

      // Undo takes the adopt back: files and conversation as before.
      await h.value('timeline:undo')
      expect(notes(h)).toBe('v2\n')
      expect(existsSync(join(h.workspace, 'red.txt'))).toBe(false)

      // Discard: the workspace goes, the branch stays.
      const discarded = await h.value<RunsView>('parallel:discard', { runId: blue.id })
      expect(byPrompt(discarded.runs, 'try blue').removed).toBe('discarded')
      expect(await h.value('parallel:diskUse', { group: red.group })).toEqual({
        workspaces: 0,
        bytes: 0
      })
      const last = await h.value<SessionGraph>('session:graph')
      expect(last.nodes.some((n) => n.id === blue.nodeId)).toBe(true)
      if (git) expect(gitIn(h.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
    })
  }

  it('stops a run mid-way: listed running while it goes, then stopped and joined; the session cannot be left meanwhile', async () => {
    const { h, first } = await twoTurns(false)
    await h.value('parallel:start', { nodeId: first, prompts: ['slow run', 'try blue'] })
    await expect
      .poll(async () => (await list(h)).runs.find((r) => r.prompt === 'slow run')?.state, {
        timeout: 20_000
      })
      .toBe('running')
    const slow = byPrompt((await list(h)).runs, 'slow run')
    // The slow run's command is under way in its own workspace, not the user's.
    await expect
      .poll(() => existsSync(join(h.home, 'runs')) && !existsSync(join(h.workspace, 'slow.txt')))
      .toBe(true)
    const leave = await h.call('session:new')
    expect(leave).toMatchObject({ ok: false, error: { code: 'busy' } })
    await h.value('parallel:stop', { runId: slow.id })
    const runs = await settled(h, 2)
    expect(byPrompt(runs, 'slow run').state).toBe('stopped')
    expect(byPrompt(runs, 'try blue').state).toBe('done')
    const twice = await h.call('parallel:stop', { runId: slow.id })
    expect(twice).toMatchObject({ ok: false, error: { code: 'conflict' } })
    expect(existsSync(join(h.workspace, 'slow.txt'))).toBe(false)
  })

  it('started twice from one node, two starts share parallel.maxRuns: one run at a time, each start its own table', async () => {
    const { h, first } = await twoTurns(false, ['parallel.maxRuns=1'])
    const one = await h.value<RunsView>('parallel:start', { nodeId: first, prompts: ['try red'] })
    expect(one.maxRuns).toBe(1)
    await h.value('parallel:start', { nodeId: first, prompts: ['try blue', 'try blue'] })
    const runs = await settled(h, 3)
    expect(new Set(runs.map((r) => r.group)).size).toBe(2)
    expect(runs.every((r) => r.state === 'done' && r.startNodeId === first)).toBe(true)
    // One place: each run started after the one before it ended.
    const spans = runs
      .map((r) => [Date.parse(r.startedAt), Date.parse(r.startedAt) + r.ms] as const)
      .sort((a, b) => a[0] - b[0])
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i]?.[0]).toBeGreaterThanOrEqual(spans[i - 1]?.[1] ?? Infinity)
    }
  })

  it('refuses more than 8 runs, a node not in the graph, and a run that is not there', async () => {
    const { h, first } = await twoTurns(false)
    const nine = await h.call('parallel:start', { nodeId: first, prompts: Array(9).fill('x') })
    expect(nine).toMatchObject({ ok: false, error: { code: 'invalid_payload' } })
    const nowhere = await h.call('parallel:start', { nodeId: 'nope', prompts: ['try blue'] })
    expect(nowhere).toMatchObject({ ok: false, error: { code: 'not_found' } })
    const none = await h.call('parallel:adoptPreview', { runId: 'no-such-run' })
    expect(none).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect((await list(h)).runs).toEqual([])
  })

  it('with the real SDK against a loopback server: two runs, one adopted, the other summarized by the model', async () => {
    const server = await startMessagesServer([], {
      answer: (body) => {
        const last = JSON.stringify(body.messages.at(-1)?.content ?? '')
        if (body.tools === undefined || body.tools.length === 0) {
          // A summary request: no tools offered.
          return {
            kind: 'message',
            content: [{ type: 'text', text: 'The other run wrote b.txt.' }]
          }
        }
        if (last.includes('tool_result')) {
          return { kind: 'message', content: [{ type: 'text', text: 'done' }] }
        }
        const name = last.includes('write a')
          ? 'a.txt'
          : last.includes('write b')
            ? 'b.txt'
            : 'start.txt'
        return {
          kind: 'message',
          content: [
            {
              type: 'tool_use',
              id: `tu_${name}`,
              name: 'Write',
              input: { file_path: name, content: `${name}\n` }
            }
          ]
        }
      }
    })
    await withServerEnv(server, async () => {
      const base = mkdtempSync(join(tmpdir(), 'rs-parallel-sdk-'))
      const workspace = join(base, 'ws')
      mkdirSync(workspace)
      writeFileSync(join(workspace, 'keep.txt'), 'kept\n')
      const h = await harness([], 'acceptEdits', 'claude-test', {
        workspace,
        home: join(base, 'home')
      })
      await h.sendAndWait('start here')
      const [first] = (await h.value<SessionGraph>('session:graph')).nodes
      await h.value('parallel:start', {
        nodeId: first?.id,
        prompts: ['now write a', 'now write b']
      })
      const runs = await settled(h, 2)
      const a = byPrompt(runs, 'now write a')
      expect(a).toMatchObject({ state: 'done', files: ['a.txt'], model: 'claude-test' })
      expect(a.tokens).not.toBeNull()
      await h.value('parallel:adopt', { runId: a.id, summary: { mode: 'summarize' } })
      expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('a.txt\n')
      const graph = await h.value<SessionGraph>('session:graph')
      const summary = graph.nodes.find((n) => n.kind === 'branch_summary' && n.onActivePath)
      expect(summary?.title).toBe('The other run wrote b.txt.')
      // The first turn, two runs of two answers each, one summary: all through the real SDK.
      expect(server.requests.length).toBe(7)
      expect(server.requests.every((r) => r.body.model === 'claude-test')).toBe(true)
    })
  })
})
