// Long work shows as it happens, through the studio's contract events as both transports carry
// them: a real Bash streams its output (keys masked) into its tool call while it runs; a restore
// of many files counts them; a summary being written counts its characters and Stop cancels it,
// changing nothing (the real SDK against the loopback Messages server).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent, SessionGraph } from '../src/shared/views'
import { startMessagesServer, withServerEnv } from './support/messages-server'
import { type Harness, studioHarnesses } from './support/studio-harness'

const { harness } = studioHarnesses()

const agentEvents = (h: Harness): AgentEvent[] =>
  h.events.flatMap((e) => (e.event === 'agent:event' ? [e.payload as AgentEvent] : []))

function ofType<T extends AgentEvent['type']>(h: Harness, type: T) {
  return agentEvents(h).filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type)
}

/** A scripted model file in a temp dir: `rules` as the scripted model reads them. */
function scriptFile(rules: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-script-')), 'script.json')
  writeFileSync(file, JSON.stringify({ rules }))
  return `scripted:${file}`
}

function bashTurn(match: string, command: string) {
  return {
    match,
    responses: [
      [{ type: 'tool_use', name: 'Bash', input: { command } }],
      [{ type: 'text', text: 'ran it' }]
    ]
  }
}

// The key is put together by bash: it is in the output, never in the command (whose JSON the
// renderer masks as it streams).
const PRINTS_A_KEY = `printf 'token sk-ant-api03-%s%s\\n' "$(printf 'aB3%.0s' $(seq 31))" xy`

describe('long work shows as it happens', () => {
  it("streams a running command's output, keys masked, before its result", async () => {
    const model = scriptFile([
      bashTurn(
        'watch',
        `${PRINTS_A_KEY}; echo first; while [ ! -e go ]; do sleep 0.05; done; echo second`
      )
    ])
    const h = await harness([], 'bypassPermissions', model)
    await h.value('agent:send', { prompt: 'watch it run' })
    // The command waits for a file made only once its first lines were seen: they came while
    // it ran.
    await expect
      .poll(() => ofType(h, 'tool_output').some((e) => e.text.includes('first\n')), {
        timeout: 20_000
      })
      .toBe(true)
    expect(ofType(h, 'tool_end')).toEqual([])
    const live = ofType(h, 'tool_output').at(-1)
    expect(live?.text).toBe('token sk-ant-…(108 chars, masked)\nfirst\n')
    expect(Number.isNaN(Date.parse(live?.startedAt ?? ''))).toBe(false)
    expect(JSON.stringify(h.events)).not.toContain('aB3aB3aB3')
    writeFileSync(join(h.workspace, 'go'), '')
    await expect.poll(() => ofType(h, 'tool_end').length, { timeout: 20_000 }).toBe(1)
    expect(ofType(h, 'tool_end')[0]?.text).toContain('first\nsecond')
  })

  it('counts the files of a restore up to all of them', async () => {
    const model = scriptFile([
      bashTurn('many', 'mkdir -p gen && for i in $(seq 300); do echo $i > gen/f$i.txt; done')
    ])
    const h = await harness([], 'bypassPermissions', model)
    await h.sendAndWait('make many files')
    expect(existsSync(join(h.workspace, 'gen/f300.txt'))).toBe(true)
    const [turn] = (await h.value<SessionGraph>('session:graph')).nodes
    await h.value('rewind:apply', { checkpointUuid: turn?.id, mode: 'code' })
    expect(existsSync(join(h.workspace, 'gen/f300.txt'))).toBe(false)
    const progress = ofType(h, 'restore_progress')
    expect(progress.at(-1)).toEqual({ type: 'restore_progress', done: 300, total: 300 })
    for (const [i, p] of progress.entries()) {
      expect(p.total).toBe(300)
      expect(p.done).toBeGreaterThan(progress[i - 1]?.done ?? 0)
    }
  })

  it('counts what a summary wrote while it is written, and Stop ends it changing nothing', async () => {
    const server = await startMessagesServer([
      { kind: 'message', content: [{ type: 'text', text: 'Hello.' }] },
      { kind: 'message', content: [{ type: 'text', text: 'Hi again.' }] },
      { kind: 'stall', content: [{ type: 'text', text: '## Goal\nA summary that never ends' }] }
    ])
    await withServerEnv(server, async () => {
      const h = await harness([], 'acceptEdits', 'claude-test')
      await h.sendAndWait('say hello')
      await h.sendAndWait('say it again')
      const graph = await h.value<SessionGraph>('session:graph')
      const summarizing = h.call('summary:upToHere', { nodeId: graph.nodes[1]?.id })
      await expect
        .poll(() => ofType(h, 'summary_progress').length, { timeout: 20_000 })
        .toBeGreaterThan(0)
      const [first] = ofType(h, 'summary_progress')
      expect(first?.chars).toBeGreaterThan(0)
      await h.value('agent:stop')
      expect(await summarizing).toMatchObject({ ok: false, error: { code: 'stopped' } })
      const after = await h.value<SessionGraph>('session:graph')
      expect(after.nodes.map((n) => n.id)).toEqual(graph.nodes.map((n) => n.id))
      expect(after.leafUuid).toBe(graph.leafUuid)
      // Nothing of the stopped summary comes after its run ended.
      const events = agentEvents(h)
      const ended = events.findLastIndex((e) => e.type === 'status' && !e.running)
      expect(events.slice(ended).some((e) => e.type === 'summary_progress')).toBe(false)
    })
  })
})
