// `claude --continue --fork-session` (real 2.1.197 output: test/fixtures/claude-code/
// fork-session-subagents, made with make/fork-session-subagents.*): a new transcript holding the
// parent's conversation and its own last turn. Claude Code writes every file-history snapshot at
// its top, the last turn's update before the snapshot it updates, and keeps the sub-agents'
// transcripts only in the parent's folder. The fork reads as the parent does for the turns they
// share: the same files changed per turn (the update repeats late.txt, tracked before the fork's
// turn: it is no change of that turn), and the same sub-agents under the same calls.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { copyFixture } from './cc-fixtures'

const PARENT = 'a78f6acb-01a0-41e2-bc7d-2e36a4f3713b'
const FORK = '4357b10f-04ab-4d9a-8348-21b6ebfb35c7'

function turns(file: string): { prompt: string; files: string[] }[] {
  const { tree } = readSessionFile(file)
  return tree.checkpoints().map((c) => ({
    prompt: c.prompt,
    files: [...new Set(tree.fileChanges(c.uuid).map((f) => f.path))].sort()
  }))
}

function agents(file: string) {
  const loaded = readSessionFile(file)
  return loaded.subagents.map((run) => ({
    id: run.id,
    title: run.title,
    messages: run.tree.pathTo(run.tree.leafUuid ?? '').length,
    calledFrom: run.parentUuid !== null && loaded.tree.get(run.parentUuid) !== undefined
  }))
}

describe('a Claude Code --fork-session transcript', () => {
  const cc = copyFixture('fork-session-subagents')
  const folder = join(cc.file, '..')
  const parent = join(folder, `${PARENT}.jsonl`)
  const fork = join(folder, `${FORK}.jsonl`)

  it("lists each turn's own changes, as the parent does for the turns they share", () => {
    const forked = turns(fork)
    expect(forked.slice(0, -1)).toEqual(turns(parent))
    expect(forked.at(-1)).toEqual({ prompt: 'in the fork', files: ['fork.txt'] })
    expect(forked.map((t) => t.files)).toEqual([[], [], ['late.txt'], ['fork.txt']])
  })

  it("draws the parent's sub-agents under the fork's own calls, from the parent's folder", () => {
    const own = agents(parent)
    expect(own.map((a) => a.title).sort()).toEqual(['failing agent', 'image agent'])
    expect(own.every((a) => a.calledFrom && a.messages > 0)).toBe(true)
    expect(agents(fork)).toEqual(own)
  })
})
