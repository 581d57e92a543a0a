// Foreign sessions in the explorer (issue 14), with hardening finding 5 ("strings that look like
// API keys are masked in every view the studio builds"): "Another tool's session shows what its
// log holds, and what the wave added to the views (sub-agent nodes and transcripts, the raw
// records of a node, Claude Code's backups in diffs and rescue previews) must be masked too."
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Reply } from '../../src/shared/contract'
import type { SessionGraph } from '../../src/shared/views'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import { launchScriptedStudio } from '../support/scripted-studio'
import type { Studio } from '../../src/core/studio/studio'
import {
  type FixtureCopy,
  copyFixture,
  readLines,
  relocateToWorkspace,
  writeLines
} from '../foreign/cc-fixtures'

const KEY = `sk-ant-api03-${'A1b2C3d4'.repeat(12)}`

const opened: Studio[] = []
const savedEnv = process.env.REWIND_STUDIO_CLAUDE_HOME
afterEach(async () => {
  for (const studio of opened.splice(0)) await studio.close()
  if (savedEnv === undefined) delete process.env.REWIND_STUDIO_CLAUDE_HOME
  else process.env.REWIND_STUDIO_CLAUDE_HOME = savedEnv
})

async function open(cc: FixtureCopy) {
  process.env.REWIND_STUDIO_CLAUDE_HOME = cc.claudeHome
  const studio = await launchScriptedStudio({
    home: cc.home,
    cwd: cc.workspace
  })
  opened.push(studio)
  const handlers = createHandlers(studio)
  const value = async (channel: string, args: unknown = {}): Promise<unknown> => {
    const reply: Reply = await dispatch(handlers, channel, args, () => {})
    if (!reply.ok) throw new Error(`${channel}: ${reply.error.message}`)
    return reply.value
  }
  await value('session:openFile', { file: cc.file })
  return value
}

function expectMasked(shown: unknown): void {
  const text = JSON.stringify(shown)
  expect(text).not.toContain(KEY.slice(14))
  expect(text).toContain('masked')
}

describe('the views of another tool’s session', () => {
  it('mask keys in titles, transcripts, sub-agents and raw records', async () => {
    const cc = relocateToWorkspace(copyFixture('compact-subagents'))
    const lines = readLines(cc.file)
    for (const r of lines) {
      const message = r.message as { content?: unknown } | undefined
      if (r.type === 'user' && message?.content === 'delegate the survey') {
        message.content = `delegate the survey with ${KEY}`
      }
      if (r.type === 'assistant') {
        for (const block of (message?.content ?? []) as {
          name?: string
          input?: Record<string, unknown>
        }[]) {
          if (block.name === 'Agent' && block.input !== undefined)
            block.input.description = `survey ${KEY}`
        }
      }
    }
    lines.push({ type: 'telemetry-of-the-future', token: KEY })
    writeLines(cc.file, lines)
    const agent = join(
      cc.file.replace(/\.jsonl$/, ''),
      'subagents',
      'agent-af25d23cc3a5722df.jsonl'
    )
    writeFileSync(
      agent,
      readFileSync(agent, 'utf8').replace('SUBTASK-A: write survey-a.txt', `SUBTASK-A: use ${KEY}`)
    )

    const value = await open(cc)
    const graph = (await value('session:graph')) as SessionGraph
    expectMasked(graph.nodes.map((n) => n.title))
    for (const node of graph.nodes) {
      const detail = await value('session:node', { nodeId: node.id })
      expect(JSON.stringify(detail)).not.toContain(KEY.slice(14))
    }
    expectMasked(await value('session:node', { nodeId: graph.nodes[0]?.id }))
    expectMasked(await value('session:node', { nodeId: graph.nodes.at(-1)?.id }))
    expectMasked(await value('session:transcript', { leafUuid: null }))
  })

  it("mask keys in diffs of Claude Code's backups and in a rescue preview", async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    const backup = join(cc.claudeHome, 'file-history', cc.sessionId, 'b79470cdb821c868@v2')
    writeFileSync(backup, `mode=a\nkey=${KEY}\n`)
    const value = await open(cc)
    const graph = (await value('session:graph')) as SessionGraph
    expectMasked(await value('session:node', { nodeId: graph.nodes[0]?.id }))
    expectMasked(await value('rescue:preview', { nodeId: graph.nodes[3]?.id }))
  })
})
