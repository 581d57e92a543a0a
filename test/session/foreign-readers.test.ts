// Reading real Claude Code and pi transcripts (../shared/corpus beside the repository) into the
// tree model, and a pi v3 file built here (the corpus has none with branches).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadSessionText, readSessionFile } from '../../src/core/session/load'
import { corpusFile, haveCorpus } from '../support/corpus'

const cc = (name: string) => corpusFile('claude-code', name)
const SUBAGENTS = 'vscode-copilot-chat_b3a7bd3c_v2.1.33_subagents'

describe.skipIf(!haveCorpus)('Claude Code transcripts', () => {
  it('file-history snapshots give each prompt its files changed; progress records are links, not nodes', () => {
    const loaded = readSessionFile(cc('entireio-cli_9b-3838281539_v2.1.33_file-history.jsonl'))
    expect(loaded.format).toBe('claude-code')
    expect(loaded.problems).toEqual([])
    expect(loaded.tree.header?.sessionId).toBe('6da7d497-00e2-460d-a6b4-d280e0314cfd')
    expect(loaded.tree.checkpoints().map((c) => [c.prompt, c.filesChanged])).toEqual([
      ['hello', 0],
      ['write a file about geese in docs', 1],
      ['delete that file', 0]
    ])
    // The update says the file did not exist before the turn (its after-state is not known yet);
    // the next prompt's snapshot then names the backup of how the turn left it.
    expect(
      loaded.tree
        .fileChanges('0a6b13d1-f892-4e90-8b5f-62e772cae0d7')
        .map((f) => [f.path, f.before, f.after, f.afterUnknown ?? false])
    ).toEqual([
      ['docs/geese.md', null, null, true],
      ['docs/geese.md', null, 'f6cf205613da63b4@v2', false]
    ])
    expect(loaded.tree.leaves()).toHaveLength(1)
    expect(loaded.tree.size).toBe(14)
    expect(loaded.tree.activePath()).toHaveLength(14)
  })

  it('parallel tool calls are one chain, not branches', () => {
    const file = cc(`${SUBAGENTS}/b3a7bd3c-5a10-4e7b-8ff0-7fc0cd6d1093.jsonl`)
    const raw = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { uuid?: string; parentUuid?: string })
    const parents = raw.map((r) => r.parentUuid).filter((p) => p !== undefined && p !== null)
    expect(parents.length - new Set(parents).size).toBeGreaterThan(0)
    const { tree, problems } = readSessionFile(file)
    expect(problems).toEqual([])
    expect(tree.leaves()).toEqual([tree.leafUuid])
    expect(tree.leafUuid).toMatch(/^f8214feb/)
    expect(tree.activePath()).toHaveLength(12)
    expect(tree.checkpoints()).toHaveLength(1)
  })

  it('a sub-agent transcript (only sidechain records) is drawn as its own tree', () => {
    const { tree } = readSessionFile(
      cc(`${SUBAGENTS}/b3a7bd3c-5a10-4e7b-8ff0-7fc0cd6d1093/subagents/agent-a775a67.jsonl`)
    )
    expect(tree.size).toBeGreaterThan(0)
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual(['Run: sleep 1'])
  })

  it('inline sidechain records are left out of the main tree', () => {
    const loaded = readSessionFile(
      cc('claude-code-viewer_5c0375b4_v1.0.108_inline-sidechain.jsonl')
    )
    expect(loaded.recordCount).toBe(53)
    expect(loaded.tree.size).toBe(53 - 22)
    expect(loaded.tree.children(null)).toHaveLength(1)
    expect(loaded.tree.leaves()).toHaveLength(1)
    // The isMeta record after the slash command is not a checkpoint.
    expect(loaded.tree.checkpoints()).toHaveLength(1)
  })
})

describe.skipIf(!haveCorpus)('pi sessions', () => {
  it('a version 1 file (no ids) is read as one chain in file order', () => {
    const file = corpusFile('pi', 'large-session.v1.jsonl')
    const loaded = readSessionFile(file)
    expect(loaded.format).toBe('pi')
    expect(loaded.problems).toEqual([])
    expect(loaded.recordCount).toBe(1019)
    expect(loaded.tree.size).toBe(914)
    expect(loaded.tree.leaves()).toHaveLength(1)
    expect(loaded.tree.activePath()).toHaveLength(914)
    expect(loaded.tree.checkpoints()).toHaveLength(88)
    const withTools = loaded.tree
      .activePath()
      .find((r) => r.type === 'assistant' && JSON.stringify(r).includes('tool_use'))
    expect(withTools).toBeDefined()
  })
})

describe('pi version 3', () => {
  //  u1 ─ a1 ─ (model_change) ─ u2 ─ a2 ─ t2
  //        └ branch_summary ─ u3 ─ (label) ─ a3
  const lines = [
    { type: 'session', version: 3, id: 'pi-session', timestamp: 't', cwd: '/p' },
    {
      type: 'message',
      id: 'u1',
      parentId: null,
      timestamp: 't',
      message: { role: 'user', content: 'start' }
    },
    {
      type: 'message',
      id: 'a1',
      parentId: 'u1',
      timestamp: 't',
      message: {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a' } }],
        stopReason: 'toolUse'
      }
    },
    { type: 'model_change', id: 'm1', parentId: 'a1', timestamp: 't', provider: 'x', modelId: 'y' },
    {
      type: 'message',
      id: 'u2',
      parentId: 'm1',
      timestamp: 't',
      message: { role: 'user', content: [{ type: 'text', text: 'go on' }] }
    },
    {
      type: 'message',
      id: 'a2',
      parentId: 'u2',
      timestamp: 't',
      message: { role: 'assistant', content: [] }
    },
    {
      type: 'message',
      id: 't2',
      parentId: 'a2',
      timestamp: 't',
      message: {
        role: 'toolResult',
        toolCallId: 'c1',
        toolName: 'read',
        content: [{ type: 'text', text: 'x' }],
        isError: false
      }
    },
    {
      type: 'branch_summary',
      id: 'b1',
      parentId: 'a1',
      timestamp: 't',
      fromId: 't2',
      summary: 'went too far'
    },
    {
      type: 'message',
      id: 'u3',
      parentId: 'b1',
      timestamp: 't',
      message: { role: 'user', content: 'again' }
    },
    { type: 'label', id: 'l1', parentId: 'u3', timestamp: 't', targetId: 'u3', label: 'retry' },
    {
      type: 'message',
      id: 'a3',
      parentId: 'l1',
      timestamp: 't',
      message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }
    }
  ]

  it('maps messages, tool results, summaries and labels; undrawn entries stay links of the chain', () => {
    const loaded = loadSessionText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
    expect(loaded.format).toBe('pi')
    expect(loaded.problems).toEqual([])
    const { tree } = loaded
    expect(tree.activePath().map((r) => r.uuid)).toEqual(['u1', 'a1', 'b1', 'u3', 'a3'])
    expect(tree.leaves()).toEqual(['t2', 'a3'])
    expect(tree.get('u2')?.parentUuid).toBe('a1')
    expect(tree.get('a1')).toMatchObject({
      message: { content: [{ type: 'tool_use', id: 'c1', name: 'read', input: { path: 'a' } }] }
    })
    expect(tree.checkpoints(tree.pathTo('t2')).map((c) => c.prompt)).toEqual(['start', 'go on'])
    expect(tree.summaries().map((s) => [s.fromId, s.summary])).toEqual([['t2', 'went too far']])
    expect(tree.labels().get('u3')).toBe('retry')
  })
})
