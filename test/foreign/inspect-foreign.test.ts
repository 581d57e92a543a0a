// `inspect` on other tools' sessions (issue 28 item 9): their compactions are summaries, as the
// graph draws them (compaction nodes), in the text and in --json; and the restore points it lists
// are the ones each agent lists (the readers' own tests hold those to the agents' screens).
import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'

const FIXTURES = resolve(import.meta.dirname, '../fixtures')
const sessionIn = (dir: string) => {
  const folder = join(FIXTURES, dir)
  return join(folder, readdirSync(folder).find((f) => f.endsWith('.jsonl')) ?? '')
}
const ccSession = (name: string) => {
  const projects = join(FIXTURES, 'claude-code', name, 'claude', 'projects')
  return sessionIn(join('claude-code', name, 'claude', 'projects', readdirSync(projects)[0] ?? ''))
}

interface Inspected {
  summaries: { kind: string; summary: string }[]
  checkpoints: { prompt: string }[]
}

describe('inspect lists the compactions of other tools as summaries', () => {
  it.each([
    ['claude-code', ccSession('compact-subagents'), 2],
    ['pi', sessionIn('pi/compaction-v3'), 1],
    ['pi v1', sessionIn('pi/v1-compaction'), 1]
  ])('%s', async (_tool, file, count) => {
    const json = await runCli(['inspect', file, '--json'])
    expect(json.code).toBe(0)
    const inspected = JSON.parse(json.stdout) as Inspected
    expect(inspected.summaries.map((s) => s.kind)).toEqual(Array(count).fill('compaction'))
    expect(inspected.summaries.every((s) => s.summary.length > 0)).toBe(true)
    const text = await runCli(['inspect', file])
    expect(text.stdout).toContain(`Summaries (${count}):`)
    expect(text.stdout).not.toContain('user (meta): This session is being continued')
    expect(text.stdout.match(/ compaction: /g)).toHaveLength(count)
  })
})

describe('inspect lists a sub-agent’s own sub-agent with the run its call is in', () => {
  it('claude-code, two deep', async () => {
    const file = ccSession('nested-subagents')
    const json = await runCli(['inspect', file, '--json'])
    expect(json.code).toBe(0)
    const { subagents } = JSON.parse(json.stdout) as {
      subagents: { id: string; title: string; inRun: string | null }[]
    }
    expect(subagents.map((s) => [s.id, s.title, s.inRun])).toEqual([
      ['ab0059ff349c9c4f5', 'outer agent', null],
      ['a3851787dcaf93475', 'inner agent', 'ab0059ff349c9c4f5']
    ])
    const text = await runCli(['inspect', file])
    expect(text.stdout).toMatch(
      /a3851787dcaf93475 inner agent \(.*called from \S+ in ab0059ff349c9c4f5/
    )
  })
})
