// A Claude Code session in the explorer, through the contract's handlers as both transports call
// them: opened read-only with the same graph, transcript and inspector as ours; its files put
// back from Claude Code's backups and the restore undone ("Restore files here"); lines appended by
// another process drawn as they come; and continued as a session of ours with the agent ready.
import { spawn } from 'node:child_process'
import { appendFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  AppInfo,
  CompareView,
  NodeDetail,
  RescuePreview,
  RescueResult,
  SessionGraph,
  TranscriptEntry
} from '../../src/shared/views'
import type { GraphUpdate } from '../../src/shared/graph-encoding'
import { graphFollower } from '../support/graph-updates'
import { type FixtureCopy, copyFixture, fingerprint, relocateToWorkspace } from './cc-fixtures'
import { studioOver as overTool } from './tool-studio'

/** Where the studio's discovery finds Claude Code's folder (sources/homes.ts). */
const studioOver = (cc: FixtureCopy) => overTool(cc, { REWIND_STUDIO_CLAUDE_HOME: cc.claudeHome })

const read = (ws: string, file: string) => readFileSync(join(ws, file), 'utf8')

describe('a Claude Code session in the explorer', () => {
  it('opens read-only with the same views: graph, transcript, inspector with diffs and raw records', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    const s = await studioOver(cc)
    const info = await s.value<AppInfo>('session:openFile', { file: cc.file })
    expect(info.foreign).toEqual({
      format: 'claude-code',
      file: cc.file,
      cwd: cc.workspace,
      backups: true,
      keeps: expect.stringContaining(
        'Claude Code keeps only the content before each change'
      ) as unknown
    })
    expect(info.sessionId).toBe(cc.sessionId)
    expect(info.readOnlyReason).toContain('read-only')
    // Every line read: no notice about the file.
    expect(info.notices.filter((n) => n.includes(cc.file))).toEqual([])

    const graph = await s.value<SessionGraph>('session:graph')
    expect(graph.sessionId).toBe(cc.sessionId)
    expect(graph.nodes.map((n) => [n.title, n.onActivePath])).toEqual([
      ['create the config', true],
      ['make two notes', false],
      ['change the mode', false],
      ['instead write a readme', true]
    ])
    const [create, , , readme] = graph.nodes
    const transcript = await s.value<TranscriptEntry[]>('session:transcript', { leafUuid: null })
    expect(transcript.filter((e) => e.isPrompt).map((e) => e.content)).toEqual([
      'create the config',
      'instead write a readme'
    ])

    const first = await s.value<NodeDetail>('session:node', { nodeId: create?.id })
    expect(first.files).toEqual([
      {
        path: 'config.txt',
        diff: expect.stringContaining('+mode=a') as unknown,
        outsideChange: false
      }
    ])
    expect(first.raw.map((r) => (r.record as { type: string }).type)).toContain(
      'file-history-snapshot'
    )
    const last = await s.value<NodeDetail>('session:node', { nodeId: readme?.id })
    expect(last.files[0]).toMatchObject({ path: 'README.md', diff: '' })
    expect(last.files[0]?.note).toContain('keeps only the content before each change')

    // Nothing writes to it: no prompt, no label, no rewind of ours.
    for (const [channel, args] of [
      ['agent:send', { prompt: 'hello' }],
      ['session:label', { nodeId: create?.id, label: 'x' }],
      ['rewind:preview', { checkpointUuid: create?.id, mode: 'both' }]
    ] as const) {
      const reply = await s.call(channel, args)
      expect(reply).toMatchObject({ ok: false, error: { code: 'read_only' } })
    }
  })

  it("restores its files from Claude Code's backups by the contract, and undoes it; Claude Code's files untouched", async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    writeFileSync(join(cc.workspace, 'mine.txt'), 'never touched by the session\n')
    const claudeBefore = fingerprint(cc.claudeHome)
    const s = await studioOver(cc)
    await s.value('session:openFile', { file: cc.file })
    const readme = (await s.value<SessionGraph>('session:graph')).nodes[3]

    const preview = await s.value<RescuePreview>('rescue:preview', { nodeId: readme?.id })
    expect(preview.restore.map((f) => f.path)).toEqual(['config.txt'])
    expect(preview.delete.map((f) => f.path)).toEqual(['README.md'])
    expect(preview.restore[0]?.diff).toContain('-mode=c')
    expect(preview).toMatchObject({ promptIndex: 2, skipped: [] })
    expect(read(cc.workspace, 'config.txt')).toBe('mode=c\n')

    const result = await s.value<RescueResult>('rescue:apply', { nodeId: readme?.id })
    expect(result).toMatchObject({ restored: ['config.txt'], deleted: ['README.md'], skipped: [] })
    expect(read(cc.workspace, 'config.txt')).toBe('mode=a\n')
    expect(readdirSync(cc.workspace).sort()).toEqual(['config.txt', 'mine.txt', 'notes'])

    const graph = await s.value<SessionGraph>('session:graph')
    expect(graph.canUndo).toBe(true)
    expect(graph.undo?.label).toContain('instead write a readme')
    await s.value('timeline:undo')
    expect(read(cc.workspace, 'config.txt')).toBe('mode=c\n')
    expect(read(cc.workspace, 'README.md')).toBe('# Notes\n')
    expect(read(cc.workspace, 'mine.txt')).toBe('never touched by the session\n')
    expect(fingerprint(cc.claudeHome)).toEqual(claudeBefore)
  })

  it('a rescue restore that can restore nothing (no backup left) records no step and says so', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    rmSync(join(cc.claudeHome, 'file-history', cc.sessionId), { recursive: true })
    rmSync(join(cc.workspace, 'README.md'))
    const s = await studioOver(cc)
    await s.value('session:openFile', { file: cc.file })
    const readme = (await s.value<SessionGraph>('session:graph')).nodes[3]
    const preview = await s.value<RescuePreview>('rescue:preview', { nodeId: readme?.id })
    expect(preview.restore).toEqual([])
    expect(preview.skipped.map((f) => f.path)).toEqual(['config.txt'])
    const reply = await s.call('rescue:apply', { nodeId: readme?.id })
    expect(reply).toMatchObject({
      ok: false,
      error: {
        code: 'not_found',
        message: expect.stringContaining('Nothing was restored') as unknown
      }
    })
    const graph = await s.value<SessionGraph>('session:graph')
    expect(graph.canUndo).toBe(false)
    expect(graph.undo).toBeNull()
  })

  it('compares two of its nodes with the caveat the restore has: a side is made of backups taken before each change', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    const s = await studioOver(cc)
    await s.value('session:openFile', { file: cc.file })
    const [create, , , readme] = (await s.value<SessionGraph>('session:graph')).nodes
    const view = await s.value<CompareView>('compare', { a: create?.id, b: readme?.id })
    expect(view.caveat).toContain('Claude Code keeps only the content before each change')
    // README.md, which the last turn wrote, was never saved as that turn left it: said so, not
    // left out as if it were the same on both sides.
    expect(view.files.find((f) => f.path === 'README.md')).toMatchObject({
      diff: '',
      note: expect.stringContaining('was never saved') as unknown
    })
    expect(
      (await s.value<CompareView>('compare', { a: create?.id, b: 'current' })).caveat
    ).toContain('keeps only the content before each change')
  })

  it('draws lines another process appends while it is open', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    const lines = readFileSync(cc.file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
    const cut = lines.findIndex((l) => l.includes('"instead write a readme"'))
    writeFileSync(cc.file, `${lines.slice(0, cut).join('\n')}\n`)
    const s = await studioOver(cc)
    await s.value('session:openFile', { file: cc.file })
    expect((await s.value<SessionGraph>('session:graph')).nodes).toHaveLength(3)

    const rest = `${lines.slice(cut).join('\n')}\n`
    await new Promise<void>((done, fail) => {
      const child = spawn(process.execPath, [
        '-e',
        'require("fs").appendFileSync(process.argv[1], process.argv[2])',
        cc.file,
        rest
      ])
      child.once('error', fail)
      child.once('exit', () => done())
    })
    await expect
      .poll(
        () => {
          const follow = graphFollower()
          const pushed = s.events.filter((e) => e.event === 'session:graphUpdate')
          return pushed.map((e) => follow(e.payload as GraphUpdate)).at(-1)?.nodes.length
        },
        { timeout: 10_000 }
      )
      .toBe(4)
  })

  it('names the lines it could not read in a notice, read at open and as they are appended', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    const s = await studioOver(cc)
    const lines = readFileSync(cc.file, 'utf8').split('\n')
    writeFileSync(cc.file, ['{not json', ...lines].join('\n'))
    const opened = await s.value<AppInfo>('session:openFile', { file: cc.file })
    expect(opened.notices.filter((n) => n.includes(cc.file))).toEqual([
      expect.stringMatching(
        /^A problem in this session's file \(line 1: not JSON: .*\)\. Everything else is shown/
      )
    ])
    expect((await s.value<SessionGraph>('session:graph')).nodes.length).toBeGreaterThan(3)

    appendFileSync(cc.file, '{"cut off\n')
    await expect
      .poll(
        async () => (await s.value<AppInfo>('app:info')).notices.find((n) => n.includes(cc.file)),
        {
          timeout: 10_000
        }
      )
      .toContain("2 problems in this session's file (line 1: not JSON")
  })

  it('continues as a session of ours holding the path to a node, with the agent ready', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    const s = await studioOver(cc)
    await s.value('session:openFile', { file: cc.file })
    const create = (await s.value<SessionGraph>('session:graph')).nodes[0]

    const info = await s.value<AppInfo>('session:continueForeign', { nodeId: create?.id })
    expect(info.foreign).toBeNull()
    expect(info.readOnlyReason).toBeNull()
    expect(info.sessionId).not.toBe(cc.sessionId)
    const header = JSON.parse(readFileSync(info.sessionFile, 'utf8').split('\n')[0] ?? '{}') as {
      continuedFrom?: unknown
    }
    expect(header.continuedFrom).toMatchObject({ file: cc.file, format: 'claude-code' })
    const graph = await s.value<SessionGraph>('session:graph')
    expect(graph.nodes.map((n) => n.title)).toEqual(['create the config'])
    // Files were not touched by continuing.
    expect(read(cc.workspace, 'config.txt')).toBe('mode=c\n')

    await s.value('agent:send', { prompt: 'and now?' })
    await expect
      .poll(async () => (await s.value<SessionGraph>('session:graph')).nodes.length)
      .toBe(2)
  })

  it('draws sub-agents as nodes of the turn that ran them, each holding its transcript', async () => {
    const cc = relocateToWorkspace(copyFixture('compact-subagents'))
    const s = await studioOver(cc)
    await s.value('session:openFile', { file: cc.file })
    const graph = await s.value<SessionGraph>('session:graph')
    const runs = graph.nodes.filter((n) => n.kind === 'subagent')
    expect(runs.map((n) => [n.title, n.parentId])).toEqual([
      ['survey B', graph.nodes[0]?.id],
      ['survey A', graph.nodes[0]?.id]
    ])
    const detail = await s.value<NodeDetail>('session:node', { nodeId: runs[1]?.id })
    expect(detail.entries.filter((e) => e.isPrompt).map((e) => e.content)).toEqual([
      'SUBTASK-A: write survey-a.txt'
    ])
    // The Transcript tab of its node shows the same, not the conversation (the foreign sweep
    // of stop 46: the page asks with the node as the branch's leaf).
    const window = await s.value<{ entries: { content: unknown; nodeId: string }[] }>(
      'session:transcriptRange',
      { leafUuid: runs[1]?.id, anchor: 'end', before: 100, after: 0 }
    )
    expect(window.entries.map((e) => e.content)).toEqual(detail.entries.map((e) => e.content))
    expect(new Set(window.entries.map((e) => e.nodeId))).toEqual(new Set([runs[1]?.id]))
    // A sub-agent's transcript is not the conversation: it is not continued from.
    const refused = await s.call('session:continueForeign', { nodeId: runs[1]?.id })
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })
})
