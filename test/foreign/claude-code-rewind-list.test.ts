// The Claude Code reader's restore points held to Claude Code's own /rewind list, as the real CLI
// (2.1.197; 2.1.63 for inline sub-agents) drew it in the screens kept with each session in
// test/fixtures/claude-code (README.md there says how each was made). Claude Code lists only what
// follows the last compaction; the explorer draws every turn, so the prompts before it are
// compared with the list captured before the /compact, and those after it with the list after.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import type { SessionTree } from '../../src/core/session/tree'
import { buildSessionGraph, indexTurns, subagentNodes } from '../../src/core/views/session-graph'
import { FIXTURES } from './cc-fixtures'

interface Entry {
  prompt: string
  /** "No code changes", or how many files the turn changed. */
  files: number
}

/** The entries of a /rewind screen, oldest first, without "(current)" and links to other sessions. */
function rewindList(screen: string): Entry[] {
  const lines = readFileSync(join(FIXTURES, screen), 'utf8')
    .split('\n')
    .map((l) => l.trim())
  const start = lines.findIndex((l) => l.startsWith('Restore the code and/or conversation'))
  const end = lines.findIndex((l, i) => i > start && l.includes('(current)'))
  const shown = lines.slice(start + 1, end).filter((l) => l !== '')
  const entries: Entry[] = []
  for (let i = 0; i < shown.length; i++) {
    const prompt = shown[i] ?? ''
    // "/resume <id> (previous session)" opens the session /clear left: no point of this file.
    if (prompt.endsWith('(previous session)')) continue
    const changes = shown[++i] ?? ''
    const many = /^(\d+) files changed/.exec(changes)
    entries.push({
      prompt,
      files: changes === 'No code changes' ? 0 : many !== null ? Number(many[1]) : 1
    })
  }
  return entries
}

function transcripts(name: string): string[] {
  const projects = join(FIXTURES, name, 'claude', 'projects')
  const folder = join(projects, readdirSync(projects)[0] ?? '')
  return readdirSync(folder)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(folder, f))
}

const entries = (tree: SessionTree, from = 0): Entry[] =>
  tree
    .checkpoints()
    .slice(from)
    .map((c) => ({ prompt: c.prompt, files: c.filesChanged }))

/** How many prompts of the active path come before its last compaction. */
function beforeLastCompaction(tree: SessionTree): number {
  const path = tree.activePath()
  const at = path.findLastIndex((r) => r.type === 'user' && r.isCompactSummary === true)
  return tree.checkpoints(path.slice(0, at)).length
}

describe("a Claude Code session's restore points are the entries of Claude Code's own /rewind list", () => {
  const [first, afterClear] = transcripts('interrupt-bash-clear').sort((a, b) =>
    a.includes('23536590') ? -1 : b.includes('23536590') ? 1 : 0
  )

  it('interrupt markers are none, bash mode is one entry shown `! cmd`, its output none (items 1, 4)', () => {
    const { tree } = readSessionFile(first ?? '')
    const cut = beforeLastCompaction(tree)
    expect(entries(tree).slice(0, cut)).toEqual(
      rewindList('interrupt-bash-clear/screen-rewind-before-compact.txt')
    )
    expect(entries(tree).map((e) => e.prompt)).not.toContain('[Request interrupted by user]')
    // The interrupted turns stopped; none failed.
    const graph = buildSessionGraph(tree, 'cc', indexTurns(tree))
    const turns = graph.nodes.filter((n) => n.kind === 'turn')
    expect(turns.map((n) => [n.title, n.outcome])).toEqual([
      ['write alpha', 'done'],
      ['run the slow command', 'stopped'],
      ['think slowly', 'stopped'],
      ['! echo hi > bang.txt', 'done'],
      ['write beta', 'done'],
      ['/compact', 'done']
    ])
  })

  it('after a /compact, what follows the compaction is the list Claude Code shows then', () => {
    const { tree } = readSessionFile(first ?? '')
    expect(entries(tree, beforeLastCompaction(tree))).toEqual(
      rewindList('interrupt-bash-clear/screen-rewind-before-clear.txt')
    )
  })

  it('the file /clear starts: /clear, then the prompt after it, as Claude Code lists them (item 2)', () => {
    const loaded = readSessionFile(afterClear ?? '')
    expect(loaded.problems).toEqual([])
    expect(entries(loaded.tree)).toEqual(
      rewindList('interrupt-bash-clear/screen-rewind-after-clear.txt')
    )
    // Its output, a system record in 2.1.197, is a note under it: the turn is done, not failed.
    const graph = buildSessionGraph(loaded.tree, 'cc', indexTurns(loaded.tree))
    expect(graph.nodes.map((n) => [n.title, n.outcome])).toEqual([
      ['/clear', 'done'],
      ['write gamma', 'done']
    ])
  })

  it.each(['rewind-continue', 'rewind-continue-restart', 'rewind-continue-code'])(
    '%s: the prompts before and after --continue, with the files each changed',
    (name) => {
      const { tree } = readSessionFile(transcripts(name)[0] ?? '')
      // The list was captured before the restore: the branch the restore left.
      const abandoned = tree.leaves().find((leaf) => tree.checkpoints(tree.pathTo(leaf)).length > 1)
      const path = tree.pathTo(abandoned ?? null)
      expect(
        tree.checkpoints(path).map((c) => ({ prompt: c.prompt, files: c.filesChanged }))
      ).toEqual(rewindList(`${name}/screen-rewind-list.txt`))
    }
  )

  it('a command in the last of several text blocks (a file an IDE wrote) is that command (item 3)', () => {
    // Headless, so no /rewind screen: Claude Code reads a message's last block for its list
    // (2.1's filter), and shows a command as typed.
    const loaded = readSessionFile(transcripts('ide-compact')[0] ?? '')
    expect(loaded.tree.checkpoints().map((c) => c.prompt)).toEqual([
      'write alpha',
      '/compact',
      'write beta'
    ])
  })
})

describe('sub-agents written only inline, as agent_progress records (item 8)', () => {
  const file = transcripts('subagents-progress-2.1.63')[0] ?? ''

  it('an exported transcript (no subagents/ folder): each agent a run under the Agent call that started it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-cc-progress-'))
    mkdirSync(join(dir, 'p'))
    const alone = join(dir, 'p', 'session.jsonl')
    copyFileSync(file, alone)
    const loaded = readSessionFile(alone)
    expect(loaded.problems).toEqual([])
    expect(entries(loaded.tree)).toEqual(
      rewindList('subagents-progress-2.1.63/screen-rewind-list.txt')
    )
    const runs = loaded.subagents
    expect(runs.map((r) => [r.id, r.toolUseId, r.title, r.source])).toEqual([
      ['a793dbe25768bca7c', 'toolu_fake_1', 'survey A', 'inline'],
      ['ac366bb55a9abcde4', 'toolu_fake_2', 'survey B', 'inline']
    ])
    expect(runs.map((r) => r.tree.checkpoints().map((c) => c.prompt))).toEqual([
      ['SUBTASK-A: write survey-a.txt'],
      ['SUBTASK-B: list the files']
    ])
    // Each run's messages in the order written: prompt, tool call, tool result.
    expect(runs.map((r) => r.tree.activePath().map((m) => m.type))).toEqual([
      ['user', 'assistant', 'user'],
      ['user', 'assistant', 'user']
    ])
    const index = indexTurns(loaded.tree)
    const graph = buildSessionGraph(loaded.tree, 'cc', index)
    expect(subagentNodes(runs, index, graph.nodes).map((n) => [n.parentId, n.title])).toEqual([
      [graph.nodes[0]?.id, 'survey A'],
      [graph.nodes[0]?.id, 'survey B']
    ])
  })

  it('with its subagents/ folder, the runs are read from there, once each', () => {
    const runs = readSessionFile(file).subagents
    expect(runs.map((r) => [r.toolUseId, r.source])).toEqual([
      ['toolu_fake_1', 'agent-a793dbe25768bca7c.jsonl'],
      ['toolu_fake_2', 'agent-ac366bb55a9abcde4.jsonl']
    ])
  })
})
