// Search and export of the Codex CLI, Gemini CLI and OpenCode sessions the real tools made
// (test/fixtures/<tool>, each README.md says how). Search goes the UI's way: the studio's
// session:searchIndex, filtered by the renderer's searchSession, and must find each turn by its
// prompt, its answers, its tools' names and the paths its tools name. Export goes through
// `rewind-studio export` (the app's Export… renders the same): Markdown gives the active branch's
// turns with their tool calls, inputs and results; the HTML page and the JSON model the whole
// tree, a backtrack's or a /restore's branch too. None of these sessions holds a compaction or a
// sub-agent: the runs that made them had none, and these readers draw none.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { indexForSearch, searchSession } from '../../src/renderer/src/graph/search'
import type { SearchEntry, SessionGraph } from '../../src/shared/views'
import { runCli } from '../support/cli'
import { OPENCODE_FORK, type ToolHome, codexHome, geminiHome, openCodeHome } from './tool-homes'
import { studioOver } from './tool-studio'

interface Session {
  tool: ToolHome
  file: string
  /** What lets the studio open it: the tool's home, where the hosts find it. */
  env: Record<string, string>
  /** The folder its tools name paths in (the one it ran in). */
  ran: string
}

function codexSession(part: string): Session {
  const tool = codexHome()
  const day = join(tool.toolHome, 'sessions', '2026', '12', '01')
  const file = join(day, readdirSync(day).find((f) => f.includes(part)) ?? '')
  return { tool, file, env: { REWIND_STUDIO_CODEX_HOME: tool.toolHome }, ran: tool.ran }
}

/** Before its /restore (four turns), or after it and --resume (the restore's branch, then one). */
function geminiSession(which: 'gemini-home' | 'gemini-home-before-restore'): Session {
  const tool =
    which === 'gemini-home'
      ? geminiHome(which, 'workspace-after')
      : geminiHome(which, 'workspace-before-restore')
  const file = tool.chats[0] ?? ''
  return { tool, file, env: { REWIND_STUDIO_GEMINI_HOME: tool.toolHome }, ran: tool.ran }
}

function openCodeSession(): Session {
  const tool = openCodeHome('workspace-after')
  const file = `${tool.db}#${OPENCODE_FORK}`
  return { tool, file, env: { REWIND_STUDIO_OPENCODE_HOME: tool.toolHome }, ran: tool.ran }
}

/** The titles of the turns a query finds, as "Search the session" lists them. */
async function searcher(session: Session) {
  const s = await studioOver(session.tool, session.env)
  await s.value('session:openFile', { file: session.file })
  const graph = await s.value<SessionGraph>('session:graph')
  const titles = new Map(graph.nodes.map((n) => [n.id, n.title]))
  const index = indexForSearch(await s.value<SearchEntry[]>('session:searchIndex'))
  return (query: string) =>
    searchSession(index, new Map(), query, 'all', 100).ids.map((id) => titles.get(id))
}

describe('search finds what other tools’ sessions hold', () => {
  it('Codex CLI: prompts, answers, tool names', async () => {
    const find = await searcher(codexSession('01db'))
    expect(find('append on the fork')).toEqual(['append on the fork'])
    expect(find('extra.txt added')).toEqual(['patch the notes'])
    expect(find('apply_patch')).toEqual(['patch the notes'])
    expect(find('exec_command')).toEqual(['create the notes', 'append on the fork'])
  })

  it('Gemini CLI: prompts, answers, tool names, the paths its tools name', async () => {
    const g = geminiSession('gemini-home-before-restore')
    const find = await searcher(g)
    expect(find('run a shell')).toEqual(['run a shell'])
    expect(find('plan.txt edited')).toEqual(['edit the plan'])
    expect(find('run_shell_command')).toEqual(['run a shell'])
    expect(find(`${g.ran}/plan.txt`)).toEqual(['write the plan', 'edit the plan'])
  })

  it('OpenCode: prompts, answers, tool names, the paths its tools name', async () => {
    const oc = openCodeSession()
    const find = await searcher(oc)
    expect(find('on the fork')).toEqual(['"on the fork"'])
    expect(find('Mode changed')).toEqual(['"change the mode"'])
    expect(find('bash')).toEqual(['"on the fork"'])
    // OpenCode's tools name their file in `filePath` (write, read, edit).
    expect(find(`${oc.ran}/config.txt`)).toEqual(['"write the config"', '"change the mode"'])
  })
})

async function exported(session: Session, format: 'md' | 'html' | 'json'): Promise<string> {
  const run = await runCli(['export', session.file, '--format', format], { env: session.tool.env })
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return run.stdout
}

interface ExportedNode {
  title: string
  kind: string
  entries: { role: string; content: { type: string; name?: string; tool_use_id?: string }[] }[]
}

/** The JSON export's turns, each with its tool calls and the calls its results answer. */
async function jsonTurns(session: Session) {
  const model = JSON.parse(await exported(session, 'json')) as { nodes: ExportedNode[] }
  return model.nodes
    .filter((n) => n.kind === 'turn')
    .map((n) => {
      const blocks = n.entries.flatMap((e) => e.content)
      return {
        title: n.title,
        calls: blocks.filter((b) => b.type === 'tool_use').map((b) => b.name),
        results: blocks.filter((b) => b.type === 'tool_result').length
      }
    })
}

describe('export renders other tools’ sessions', () => {
  it('Codex CLI: a fork with its parent’s turns, and a backtrack’s branch', async () => {
    const fork = codexSession('01db')
    const md = await exported(fork, 'md')
    expect(md).toContain('## 1. create the notes')
    expect(md).toContain('## 3. append on the fork')
    expect(md).toContain('- ⏺ `apply_patch`')
    expect(md).toContain('*** Add File: extra.txt')
    expect(md).toContain('Success. Updated the following files:')
    expect(md).toContain('Appended on the fork.')
    expect(await jsonTurns(fork)).toEqual([
      { title: 'create the notes', calls: ['exec_command'], results: 1 },
      { title: 'patch the notes', calls: ['apply_patch'], results: 1 },
      { title: 'append on the fork', calls: ['exec_command'], results: 1 }
    ])
    // After the backtrack: the branch it left is in the page and the model, not the Markdown.
    const segment = codexSession('_01a2340a-7abe')
    expect(await exported(segment, 'md')).not.toContain('first tui prompt')
    const html = await exported(segment, 'html')
    for (const prompt of ['first tui prompt', 'second tui prompt', 'after the rewind'])
      expect(html).toContain(prompt)
    expect((await jsonTurns(segment)).map((t) => t.title).sort()).toEqual([
      'after the rewind',
      'first tui prompt',
      'second tui prompt'
    ])
  })

  it('Gemini CLI: its turns and tool calls, and the branch /restore went on from', async () => {
    const before = geminiSession('gemini-home-before-restore')
    const md = await exported(before, 'md')
    expect(md).toContain('## 2. edit the plan')
    expect(md).toContain('- ⏺ `replace`')
    expect(md).toContain('old_string: plan v1')
    expect(md).toContain('Successfully modified file:')
    expect(md).toContain('## 4. run a shell')
    expect(await jsonTurns(before)).toEqual([
      { title: 'write the plan', calls: ['write_file'], results: 1 },
      { title: 'edit the plan', calls: ['replace'], results: 1 },
      { title: 'write the notes', calls: ['write_file'], results: 1 },
      { title: 'run a shell', calls: ['run_shell_command'], results: 1 }
    ])
    // After /restore and --resume: the Markdown is the branch it went on with, the page and the
    // model hold the turns the restore left too.
    const after = geminiSession('gemini-home')
    const resumed = await exported(after, 'md')
    expect(resumed).toContain('## 1. write the notes again')
    expect(resumed).not.toContain('run a shell')
    const html = await exported(after, 'html')
    const titles = (await jsonTurns(after)).map((t) => t.title)
    expect(new Set(titles)).toEqual(
      new Set([
        'write the plan',
        'edit the plan',
        'write the notes',
        'run a shell',
        'write the notes again'
      ])
    )
    for (const title of titles) expect(html).toContain(title)
  })

  it('OpenCode: its turns, tool calls and file changes', async () => {
    const oc = openCodeSession()
    const md = await exported(oc, 'md')
    expect(md).toContain('## 3. "on the fork"')
    expect(md).toContain('changed `fork.txt`')
    expect(md).toContain('- ⏺ `edit`')
    expect(md).toContain('newString: mode=b')
    expect(md).toContain('Edit applied successfully.')
    expect(await jsonTurns(oc)).toEqual([
      { title: '"write the config"', calls: ['write'], results: 1 },
      { title: '"change the mode"', calls: ['read', 'edit'], results: 2 },
      { title: '"on the fork"', calls: ['bash'], results: 1 }
    ])
    const html = await exported(oc, 'html')
    for (const text of ['"write the config"', '"on the fork"', 'fork.txt written.', 'bash'])
      expect(html).toContain(text)
  })
})
