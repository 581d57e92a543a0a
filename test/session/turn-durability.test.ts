// The agent makes a turn's records durable in groups (docs/session-format.md, "Crash safety"),
// not one fdatasync each: the prompt before the model is called; a tool's file_change records,
// with every line before them, before the tool's result is shown; everything when the turn ends.
// Watched through the real agent, file history and store, with a model that answers at once.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ContentBlock } from '../../src/shared/messages'
import type { ModelClient } from '../../src/core/agent/model/model-client'
import { SessionStore } from '../../src/core/session/store'
import { WorkspaceSession } from '../../src/core/workspace/workspace-session'

const open: WorkspaceSession[] = []
afterEach(async () => {
  for (const work of open.splice(0)) {
    await work.history.close()
    work.store.close()
  }
})

/** Where each line of the log ends (a byte offset), with its record type. */
function lineEnds(file: string): { type: string; end: number }[] {
  const text = readFileSync(file)
  const ends: { type: string; end: number }[] = []
  let start = 0
  for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, start)) {
    const record = JSON.parse(text.subarray(start, at).toString('utf8')) as { type: string }
    ends.push({ type: record.type, end: at + 1 })
    start = at + 1
  }
  return ends
}

describe('a turn’s records', () => {
  it('are durable by the rule’s points, in fewer fdatasyncs than records', async () => {
    const base = mkdtempSync(join(tmpdir(), 'rs-durable-'))
    const cwd = join(base, 'ws')
    mkdirSync(cwd)
    const store = SessionStore.create({ home: join(base, 'home'), cwd })
    const seen: string[] = []
    const replies: ContentBlock[][] = [
      [{ type: 'tool_use', id: 'w', name: 'Write', input: { file_path: 'a.txt', content: 'A\n' } }],
      [{ type: 'tool_use', id: 'b', name: 'Bash', input: { command: 'echo B > b.txt' } }],
      [{ type: 'text', text: 'done' }]
    ]
    const model: ModelClient = {
      id: 'test',
      async complete(request) {
        const lines = lineEnds(store.file)
        const prompt = lines.findLast((l) => l.type === 'user')
        if (request.script.answered === 0) {
          // The prompt is durable before the model is called.
          expect(store.syncedBytes).toBeGreaterThanOrEqual(prompt?.end ?? Infinity)
        } else {
          // A tool's result, written after its file_change, waits for the next group.
          expect(store.syncedBytes).toBeLessThan(lines.at(-1)?.end ?? 0)
          seen.push('unsynced result')
        }
        const content = replies[request.script.answered] ?? []
        return { content, stopReason: 'tool_use', model: 'test' }
      }
    }
    const work = await WorkspaceSession.open({
      home: join(base, 'home'),
      store,
      model,
      permissionMode: 'bypassPermissions',
      checkpointTools: false,
      bashSandbox: false,
      askPermission: async () => true,
      onEvent: (event) => {
        if (event.type !== 'tool_end') return
        // A tool's file_change records, and every line before them, are durable before its
        // result is shown.
        const changes = lineEnds(store.file).filter((l) => l.type === 'file_change')
        expect(changes).toHaveLength(event.toolUseId === 'w' ? 1 : 2)
        expect(store.syncedBytes).toBeGreaterThanOrEqual(changes.at(-1)?.end ?? Infinity)
        seen.push(`durable ${event.toolUseId}`)
      }
    })
    open.push(work)
    const outcome = await work.agent.send('write a and b')
    expect(outcome).toMatchObject({ status: 'completed' })
    expect(seen).toEqual(['durable w', 'unsynced result', 'durable b', 'unsynced result'])
    // Everything is durable once the turn has ended.
    expect(store.syncedBytes).toBe(readFileSync(store.file).length)
    expect(lineEnds(store.file).map((l) => l.type)).toEqual([
      'session',
      'user',
      'assistant',
      'file_change',
      'user',
      'assistant',
      'file_change',
      'user',
      'assistant'
    ])
  })
})
