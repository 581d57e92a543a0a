// Wave 2 rule (findings 5 and 9 applied to what issue 13 adds): "strings that look like API keys
// are masked in every view the studio builds for the UI and in CLI output … untrusted text
// printed on a terminal goes through the one escape function … anything NEW you show the user
// (exports, summaries, compare views, foreign sessions) goes through both."
//
// A model whose answers and summaries hold an Anthropic key and terminal escape sequences (a
// window title change, a clear screen, a carriage return). The summaries the chat and `cli
// summarize` print, and the graph and node details the studio builds for a summary and a
// compaction, show no key; the terminal gets no control character. The log keeps what was said.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'
import type { NodeDetail, SessionGraph } from '../../src/shared/views'
import { chatIn, runCli, seedWorkspace } from '../support/cli'
import { studioHarnesses } from '../support/studio-harness'

// Built at run time, so the test file itself holds nothing a secret scanner would flag.
const KEY = `sk-ant-api03-${'Xy7'.repeat(30)}AbCd`
const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\rall good'
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/

function script(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-script-')), 'script.json')
  writeFileSync(
    file,
    JSON.stringify({
      summary: `## Goal\nUse the key ${KEY} ${ESCAPES}\n## Next steps\nRotate it.`,
      rules: [{ match: '', responses: [[{ type: 'text', text: `noted ${KEY}` }]] }]
    })
  )
  return `scripted:${file}`
}

const { harness } = studioHarnesses()

describe('summaries shown are masked and escaped', () => {
  it('in the chat and cli summarize: no key, no control character', async () => {
    const model = script()
    const { workspace, home } = seedWorkspace()
    const env = { REWIND_STUDIO_HOME: home }
    // The key comes from the model, not from what is typed: a pipe's lines are echoed as read.
    const chat = await chatIn(
      workspace,
      model,
      env
    )('keep it\nagain\n/summarize-up-to 2\n/compact\n/exit\n')
    expect(chat.code).toBe(0)
    expect(chat.stdout).toContain('  │ ## Goal')
    const file = SessionStore.latest(home, workspace) as string
    const summarized = await runCli(['summarize', file, '--from', '2', '--model', model], { env })
    expect(summarized.code).toBe(0)
    for (const out of [chat.stdout, chat.stderr, summarized.stdout, summarized.stderr]) {
      expect(out).not.toContain(KEY)
      expect(out).not.toMatch(ACTIVE)
    }
    expect(summarized.stdout).toContain('sk-ant-…(')
    // The log keeps what was said.
    expect(readFileSync(file, 'utf8')).toContain(KEY)
  }, 60_000)

  it('in the studio: the graph and the node details of a summary and a compaction', async () => {
    const h = await harness([], 'acceptEdits', script())
    await h.sendAndWait(`keep ${KEY}`)
    await h.sendAndWait(`again ${KEY}`)
    const [first, second] = (await h.value<SessionGraph>('session:graph')).nodes
    const { summaryUuid: compaction } = await h.value<{ summaryUuid: string }>('summary:upToHere', {
      nodeId: second?.id
    })
    const { summaryUuid: left } = await h.value<{ summaryUuid: string }>('rewind:apply', {
      checkpointUuid: second?.id,
      mode: 'conversation',
      summary: { mode: 'summarize', instructions: `about ${KEY}` }
    })
    const shown = [
      await h.value<SessionGraph>('session:graph'),
      await h.value<NodeDetail>('session:node', { nodeId: compaction }),
      await h.value<NodeDetail>('session:node', { nodeId: left }),
      await h.value('session:transcript', { leafUuid: null })
    ]
    for (const view of shown) expect(JSON.stringify(view)).not.toContain(KEY)
    expect(JSON.stringify(shown[1])).toContain('sk-ant-…(')
    expect(first).toBeDefined()
  }, 60_000)
})
