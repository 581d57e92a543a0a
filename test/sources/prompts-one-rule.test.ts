// Issue 28 item 9: the session list counts prompts by the rule the tree draws them by. The list's
// summary (summary.ts, built line by line and cached) and the tree (the format's reader) are held
// to each other on every real session file of the fixtures: the list's count is the number of
// prompts the tree holds, on every branch.
import { mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { conversationNodeOf, isPrompt } from '../../src/core/session/tree'
import { SessionIndex } from '../../src/core/sources/session-index'
import type { SessionSource } from '../../src/core/sources/homes'

const FIXTURES = resolve(import.meta.dirname, '../fixtures')

function sessionFiles(tool: string): string[] {
  const dir = join(FIXTURES, tool)
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter(
      (f) => f.endsWith('.jsonl') && !f.split('/').includes('make') && !f.includes('/subagents/')
    )
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .sort()
}

function listed(file: string, source: SessionSource) {
  const index = new SessionIndex(mkdtempSync(join(tmpdir(), 'rs-index-')), false)
  const found = index.folder(dirname(file), source).find((f) => f.name === basename(file))
  if (found === undefined) throw new Error(`${file} is not listed`)
  return found.summary
}

describe('the list and the tree count the same prompts', () => {
  it.each([
    ...sessionFiles('claude-code').map((f) => ['claude-code', f] as const),
    ...sessionFiles('pi').map((f) => ['pi', f] as const),
    // Codex CLI's forks count their parent's prompts too: held in codex-reader.test.ts, where
    // the list finds the parent beside them.
    ...sessionFiles('gemini-cli').map((f) => ['gemini-cli', f] as const)
  ])('%s %s', (source, file) => {
    const { tree } = readSessionFile(file)
    const prompts = tree.records.flatMap((r) => {
      const node = conversationNodeOf(r)
      return node !== null && isPrompt(node) ? [node] : []
    })
    const summary = listed(file, source)
    expect(summary.prompts).toBe(prompts.length)
    expect(summary.firstPrompt).toBe(
      prompts[0] === undefined ? null : tree.checkpoints([prompts[0]])[0]?.prompt
    )
  })
})
