// Finding 5 (second half): "Mask strings that look like API keys in what the UI and `inspect`
// print (the log keeps what was said)." Since issue 26, what a tool returns is masked before it
// is logged too.
//
// A turn whose prompt holds an Anthropic key, which reads a .env holding an AWS key, a GitHub
// token and a PEM private key, writes a file with a Slack token and answers with a bearer
// token. What the studio shows (graph, transcript, node details, rewind preview, the agent's
// stream) and what `inspect` prints hold none of them; the session log holds those the user and
// the model wrote.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import { launchScriptedStudio } from '../support/scripted-studio'
import type { Studio } from '../../src/core/studio/studio'
import type { EventChannel } from '../../src/shared/contract'
import type { AgentEvent, SessionGraph } from '../../src/shared/views'
import { runCli, seedWorkspace } from '../support/cli'

// Built at run time, so the test file itself holds nothing a secret scanner would flag.
const keys = {
  anthropic: `sk-ant-api03-${'Xy7'.repeat(30)}AbCd`,
  aws: `AKIA${'Q7ZX'.repeat(4)}`,
  github: `ghp_${'k9Lm'.repeat(9)}`,
  slack: `xoxb-1234567890-${'a1B2'.repeat(6)}`,
  bearer: `eyJhbGciOiJIUzI1NiJ9.${'eyJzdWIiOiIxIn0'.repeat(2)}.Sig_Nat-ure42`,
  pemBody: `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${'Bm9'.repeat(20)}`
}
const secretFile = [
  `AWS_ACCESS_KEY_ID=${keys.aws}`,
  `GITHUB_TOKEN=${keys.github}`,
  '-----BEGIN PRIVATE KEY-----',
  keys.pemBody,
  '-----END PRIVATE KEY-----',
  ''
].join('\n')

function expectNoKey(shown: string): void {
  for (const key of Object.values(keys)) expect(shown).not.toContain(key)
}

const open: Studio[] = []
afterEach(async () => {
  for (const studio of open.splice(0)) await studio.close()
})

describe('strings that look like API keys', () => {
  it('are masked in the studio’s views and in inspect, and kept in the log', async () => {
    const { workspace, home } = seedWorkspace()
    writeFileSync(join(workspace, 'secret.env'), secretFile)
    const script = join(mkdtempSync(join(tmpdir(), 'rs-mask-')), 'script.json')
    const responses = [
      [{ type: 'tool_use', name: 'Read', input: { file_path: 'secret.env' } }],
      [
        {
          type: 'tool_use',
          name: 'Write',
          input: { file_path: 'notes.txt', content: `slack: ${keys.slack}\n` }
        }
      ],
      [{ type: 'text', text: `Deployed with Authorization: Bearer ${keys.bearer}` }]
    ]
    writeFileSync(script, JSON.stringify({ rules: [{ match: '', responses }] }))

    const events: { event: EventChannel; payload: unknown }[] = []
    const studio = await launchScriptedStudio({
      home,
      cwd: workspace,
      model: `scripted:${script}`,
      session: { kind: 'new' },
      emit: (event, payload) => events.push({ event, payload })
    })
    open.push(studio)
    const handlers = createHandlers(studio)
    const value = async <T>(channel: string, args: unknown = {}): Promise<T> => {
      const reply = await dispatch(handlers, channel, args, () => {})
      if (!reply.ok) throw new Error(`${channel}: ${reply.error.message}`)
      return reply.value as T
    }
    await value('agent:send', { prompt: `deploy with the key ${keys.anthropic} please` })
    await expect
      .poll(() =>
        events.some(
          (e) =>
            e.event === 'agent:event' &&
            (e.payload as AgentEvent).type === 'status' &&
            !(e.payload as { running: boolean }).running
        )
      )
      .toBe(true)

    const graph = await value<SessionGraph>('session:graph')
    const turn = graph.nodes[0]?.id as string
    const shown = JSON.stringify([
      graph,
      await value('session:transcript', { leafUuid: null }),
      await value('session:node', { nodeId: turn }),
      await value('rewind:preview', { checkpointUuid: turn, mode: 'both' }),
      await value('session:list'),
      events.filter((e) => (e.payload as AgentEvent).type !== 'block_delta')
    ])
    expectNoKey(shown)
    expect(graph.nodes[0]?.title).toBe('deploy with the key sk-ant-…(107 chars, masked) please')
    for (const masked of [
      'AKIA…(20 chars, masked)',
      'ghp_…(40 chars, masked)',
      '-----BEGIN PRIVATE KEY-----…(',
      'xoxb-…(',
      'Bearer …('
    ])
      expect(shown).toContain(masked)

    const file = studio.info().sessionFile
    const text = await runCli(['inspect', file])
    const json = await runCli(['inspect', file, '--json'])
    expect(text.code).toBe(0)
    expectNoKey(text.stdout + json.stdout)
    expect(text.stdout).toContain('prompt: deploy with the key sk-ant-…(107 chars, masked) please')
    expect(JSON.parse(json.stdout).checkpoints[0].prompt).toBe(
      'deploy with the key sk-ant-…(107 chars, masked) please'
    )

    // The log keeps what the user and the model said: the model's next request is built from
    // it. What a tool read (the .env's keys) was masked before it was logged
    // (api-key-not-in-proc-environ.test.ts).
    const log = readFileSync(file, 'utf8')
    for (const key of [keys.anthropic, keys.slack, keys.bearer]) expect(log).toContain(key)
    for (const key of [keys.aws, keys.github, keys.pemBody]) expect(log).not.toContain(key)
  })
})
