// Issue 6: the checkpoint/rewind pair, through the real SDK against the loopback Messages server
// (the next request is what proves the exploration left the context), the scripted model, and a
// real process killed between checkpoint and rewind.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { apiModel, makeHarness, notices } from '../support/agent-harness'
import type { HarnessOptions } from '../support/agent-harness'
import {
  startMessagesServer,
  textReply as text,
  toolReply as call
} from '../support/messages-server'
import type { MessagesServer, ServerStep } from '../support/messages-server'
import { SessionStore } from '../../src/core/session/store'
import { Agent } from '../../src/core/agent/agent'
import { builtinTools } from '../../src/core/agent/tools'
import { ScriptedModel } from '../../src/core/agent/model/scripted'
import { runTool } from '../../src/core/agent/tools/tool'
import { makeWorkspace } from '../support/tool-workspace'
import { applyRewind } from '../../src/core/agent/checkpoint/apply'
import { checkpointToolNames } from '../../src/core/agent/checkpoint/registration'
import { CheckpointState } from '../../src/core/agent/checkpoint/state'
import {
  ALREADY_COMPLETED,
  CHECKPOINT_ALREADY_ACTIVE,
  CHECKPOINT_MISSING_LOG,
  NO_ACTIVE_CHECKPOINT,
  REPORT_EMPTY,
  REWIND_REQUESTED
} from '../../src/core/agent/checkpoint/texts'
import { createCheckpointTools } from '../../src/core/agent/checkpoint/tools'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function setup(steps: ServerStep[], options: Partial<HarnessOptions> = {}) {
  server = await startMessagesServer(steps)
  const h = makeHarness({ model: apiModel(server.url), checkpointTools: true, ...options })
  return { h, server }
}

describe('tool errors, word for word', () => {
  function tools() {
    const state = new CheckpointState()
    state.batchResultUuid = 'batch-1'
    const [checkpoint, rewind] = createCheckpointTools(state)
    if (checkpoint === undefined || rewind === undefined) throw new Error('the pair is missing')
    return { state, checkpoint, rewind, ctx: makeWorkspace().ctx }
  }

  test('rewind with no checkpoint', async () => {
    const { rewind, ctx } = tools()
    await expect(runTool(rewind, { report: 'x' }, ctx)).resolves.toEqual({
      isError: true,
      content: NO_ACTIVE_CHECKPOINT
    })
    expect(NO_ACTIVE_CHECKPOINT).toBe(
      'No active checkpoint. Create a checkpoint before calling rewind.'
    )
  })

  test('an empty report, after trimming', async () => {
    const { checkpoint, rewind, ctx } = tools()
    await runTool(checkpoint, { goal: 'g' }, ctx)
    await expect(runTool(rewind, { report: ' \n\t ' }, ctx)).resolves.toEqual({
      isError: true,
      content: 'Report cannot be empty.'
    })
    expect(REPORT_EMPTY).toBe('Report cannot be empty.')
  })

  test('a second checkpoint while one is active', async () => {
    const { checkpoint, ctx } = tools()
    const first = await runTool(checkpoint, { goal: 'find the bug' }, ctx)
    expect(first.isError).toBe(false)
    expect(first.content.split('\n')[0]).toBe('Checkpoint: find the bug')
    expect(first.details).toMatchObject({ goal: 'find the bug' })
    await expect(runTool(checkpoint, { goal: 'again' }, ctx)).resolves.toEqual({
      isError: true,
      content: 'Checkpoint already active.'
    })
    expect(CHECKPOINT_ALREADY_ACTIVE).toBe('Checkpoint already active.')
  })

  test('rewind after the checkpoint completed', async () => {
    const { state, rewind, ctx } = tools()
    state.lastCompleted = { report: 'r', startedAt: 't0', rewoundAt: 't1' }
    await expect(runTool(rewind, { report: 'again' }, ctx)).resolves.toEqual({
      isError: true,
      content: ALREADY_COMPLETED
    })
    expect(ALREADY_COMPLETED).toBe(
      'Checkpoint already completed; continue from the retained rewind report instead of calling rewind again.'
    )
  })

  test('success: the report trimmed, details {report, rewound: true}; strict schemas refuse extra fields', async () => {
    const { checkpoint, rewind, ctx } = tools()
    await runTool(checkpoint, { goal: 'g' }, ctx)
    await expect(runTool(rewind, { report: '  found it  ' }, ctx)).resolves.toEqual({
      isError: false,
      content: 'Rewind requested. Report captured for context replacement.',
      details: { report: 'found it', rewound: true }
    })
    expect(REWIND_REQUESTED).toBe('Rewind requested. Report captured for context replacement.')
    expect((await runTool(checkpoint, { goal: 'g', extra: 1 }, ctx)).isError).toBe(true)
    expect(checkpoint.permission).toBe('read')
    expect(rewind.permission).toBe('read')
  })
})

describe('the gate', () => {
  test('off by default: the setting off offers neither tool', async () => {
    const { h, server } = await setup([text('ok')], { checkpointTools: false })
    await h.agent.send('hi')
    const names = (server.requests[0]?.body.tools ?? []).map((t) => (t as { name: string }).name)
    expect(names).not.toContain('checkpoint')
    expect(names).not.toContain('rewind')
    expect(h.agent.toolNames).toEqual(['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep'])
  })

  test('on: the top-level session gets both, after the builtin tools', async () => {
    const { h, server } = await setup([text('ok')])
    await h.agent.send('hi')
    const names = (server.requests[0]?.body.tools ?? []).map((t) => (t as { name: string }).name)
    expect(names.slice(-2)).toEqual(['checkpoint', 'rewind'])
    expect(JSON.stringify(server.requests[0]?.body.tools?.at(-1))).toContain(
      '"additionalProperties":false'
    )
  })

  test('sub-agents: only on request, and either name brings its sibling', () => {
    expect(checkpointToolNames({ enabled: false, taskDepth: 0 })).toEqual([])
    expect(checkpointToolNames({ enabled: true, taskDepth: 0 })).toEqual(['checkpoint', 'rewind'])
    expect(checkpointToolNames({ enabled: true, taskDepth: 1 })).toEqual([])
    expect(checkpointToolNames({ enabled: true, taskDepth: 1, requestedTools: ['Read'] })).toEqual(
      []
    )
    expect(
      checkpointToolNames({ enabled: true, taskDepth: 1, requestedTools: ['rewind'] })
    ).toEqual(['checkpoint', 'rewind'])
    expect(
      checkpointToolNames({ enabled: true, taskDepth: 2, requestedTools: ['checkpoint'] })
    ).toEqual(['checkpoint', 'rewind'])
    expect(
      checkpointToolNames({ enabled: false, taskDepth: 1, requestedTools: ['checkpoint'] })
    ).toEqual([])
  })
})

/** The request body's messages as one string, to look for what it holds. */
function sent(server: MessagesServer, i: number): string {
  return JSON.stringify(server.requests[i]?.body.messages)
}

describe('normal rewind', () => {
  test('the next request holds the report and the prompt before the checkpoint, none of the exploration or the rewind call', async () => {
    const { h, server } = await setup([
      text('Noted.'),
      call('tu_cp', 'checkpoint', { goal: 'where is HOST used' }),
      call('tu_explore', 'Grep', { pattern: 'HOST' }),
      call('tu_rw', 'rewind', { report: '  HOST is only set in config.py.  ' }),
      text('HOST lives in config.py.')
    ])
    h.ws.put('config.py', 'DEBUG = True\nHOST = "localhost"\n')
    await h.agent.send('remember: the project is small')
    await expect(h.agent.send('explore where HOST is used')).resolves.toEqual({
      status: 'completed',
      stopReason: 'end_turn'
    })
    expect(server.requests).toHaveLength(5)

    // During the exploration the model was reminded of the open checkpoint.
    expect(sent(server, 2)).toContain('A checkpoint is active (goal: where is HOST used)')
    expect(sent(server, 3)).toContain('tu_explore')

    const next = sent(server, 4)
    expect(next).toContain('remember: the project is small')
    expect(next).toContain('explore where HOST is used')
    expect(next).toContain('HOST is only set in config.py.')
    expect(next).toContain('Do not call rewind again')
    for (const gone of [
      'tu_explore',
      'tu_rw',
      'Rewind requested',
      'A checkpoint is active',
      'config.py:2'
    ]) {
      expect(next).not.toContain(gone)
    }
    // The request before the rewind and the one after share the prefix up to the checkpoint.
    const after = server.requests[4]?.body.messages ?? []
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(JSON.stringify(after.slice(0, 4))).toBe(
      JSON.stringify(server.requests[2]?.body.messages.slice(0, 4))
    )

    const tree = h.store.tree()
    const path = tree.activePath()
    const summary = path.find((r) => r.type === 'branch_summary')
    const report = path.find((r) => r.type === 'custom_message' && r.customType === 'rewind-report')
    const entry = path.find(
      (r) => r.type === 'user' && JSON.stringify(r).includes('"tool_use_id":"tu_cp"')
    )
    expect(summary?.type === 'branch_summary' && summary).toMatchObject({
      parentUuid: entry?.uuid,
      fromId: entry?.uuid,
      summary: 'HOST is only set in config.py.',
      details: { startedAt: expect.any(String) }
    })
    expect(report?.type === 'custom_message' && report).toMatchObject({
      parentUuid: summary?.uuid,
      hidden: true,
      details: {
        report: 'HOST is only set in config.py.',
        startedAt: expect.any(String),
        rewoundAt: expect.any(String)
      }
    })
    // The rewind's result is in the log, on the branch that was left, never on the kept one.
    expect(JSON.stringify(path)).not.toContain(REWIND_REQUESTED)
    expect(JSON.stringify(tree.records)).toContain(REWIND_REQUESTED)
    expect(tree.summaries().map((s) => s.kind)).toEqual(['branch_summary', 'rewind_report'])
    expect(h.agent.checkpoint.active).toBeNull()
    expect(h.agent.checkpoint.lastCompleted?.report).toBe('HOST is only set in config.py.')
    expect(notices(h.events, 'info')[0]).toContain('HOST is only set in config.py.')
  })

  test('deferred: tools after rewind in the same step still run on the old branch; the cut comes after the step', async () => {
    const { h, server } = await setup([
      call('tu_cp', 'checkpoint', { goal: 'g' }),
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'tu_rw', name: 'rewind', input: { report: 'r1' } },
          { type: 'tool_use', id: 'tu_read', name: 'Read', input: { file_path: 'a.txt' } }
        ]
      },
      text('done')
    ])
    h.ws.put('a.txt', 'alpha\n')
    await h.agent.send('look')
    const tree = h.store.tree()
    const results = tree.records.find((r) => JSON.stringify(r).includes('"tool_use_id":"tu_read"'))
    expect(JSON.stringify(results)).toContain('alpha')
    expect(JSON.stringify(results)).toContain(REWIND_REQUESTED)
    expect(sent(server, 2)).not.toContain('alpha')
    expect(sent(server, 2)).toContain('r1')
  })

  test('checkpoint and rewind in the same step: the kept branch holds neither call', async () => {
    const { h, server } = await setup([
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'tu_cp', name: 'checkpoint', input: { goal: 'g' } },
          { type: 'tool_use', id: 'tu_rw', name: 'rewind', input: { report: 'nothing to see' } }
        ]
      },
      text('ok')
    ])
    await expect(h.agent.send('quick look')).resolves.toMatchObject({ status: 'completed' })
    const next = sent(server, 1)
    expect(next).toContain('nothing to see')
    expect(next).not.toContain('tu_cp')
    expect(next).not.toContain('tu_rw')
    expect(server.requests[1]?.body.messages.map((m) => m.role)).toEqual(['user'])
  })
})

describe('stop', () => {
  test('a stop after rewind was requested but before the step ended: nothing is applied, the checkpoint stays open', async () => {
    const { h } = await setup(
      [
        call('tu_cp', 'checkpoint', { goal: 'g' }),
        {
          kind: 'message',
          content: [
            { type: 'tool_use', id: 'tu_rw', name: 'rewind', input: { report: 'r' } },
            { type: 'tool_use', id: 'tu_sleep', name: 'Bash', input: { command: 'sleep 30' } }
          ]
        }
      ],
      {
        onEvent: (e, agent) => {
          if (e.type === 'tool_start' && e.name === 'Bash') setImmediate(() => agent.stop())
        }
      }
    )
    await expect(h.agent.send('explore')).resolves.toEqual({ status: 'stopped' })
    expect(h.store.tree().summaries()).toEqual([])
    expect(h.agent.checkpoint.pending).toBeNull()
    expect(h.agent.checkpoint.active?.goal).toBe('g')
  })
})

describe('fallback to root', () => {
  test('a checkpoint entry no longer in the tree: the exact log line, a branch from the root, no failure', () => {
    const home = makeWorkspace().base
    const store = SessionStore.create({ home, cwd: join(home, 'ws') })
    store.appendMessage({ role: 'user', content: 'hi' })
    const state = new CheckpointState()
    state.active = {
      goal: 'g',
      startedAt: '2026-01-01T00:00:00.000Z',
      entryUuid: '0190aaaa-0000-7000-8000-000000000000'
    }
    state.pending = { report: 'what I found' }
    const log: string[] = []
    const applied = applyRewind(store, state, new Date('2026-01-01T00:01:00.000Z'), (line) =>
      log.push(line)
    )
    expect(log).toEqual(['Rewind branch checkpoint missing, falling back to root'])
    expect(CHECKPOINT_MISSING_LOG).toBe('Rewind branch checkpoint missing, falling back to root')
    expect(applied.fellBack).toBe(true)
    expect(applied.summary).toMatchObject({
      parentUuid: null,
      fromId: 'root',
      summary: 'what I found'
    })
    expect(
      store
        .tree()
        .activePath()
        .map((r) => r.type)
    ).toEqual(['branch_summary', 'custom_message'])
    expect(state.active).toBeNull()
    expect(state.lastCompleted).toEqual({
      report: 'what I found',
      startedAt: '2026-01-01T00:00:00.000Z',
      rewoundAt: '2026-01-01T00:01:00.000Z'
    })
  })
})

describe('enforce before yield', () => {
  test('a turn ending with the checkpoint open is sent back with a warning; after 3 the agent stops and says so', async () => {
    const { h, server } = await setup([
      call('tu_cp', 'checkpoint', { goal: 'g' }),
      text('a'),
      text('b'),
      text('c'),
      text('d')
    ])
    await expect(h.agent.send('explore')).resolves.toEqual({ status: 'checkpoint_left_open' })
    expect(server.requests).toHaveLength(5)
    expect(sent(server, 2)).toContain('Reminder 1 of 3')
    expect(sent(server, 3)).toContain('Reminder 2 of 3')
    expect(sent(server, 4)).toContain('Reminder 3 of 3')
    expect(sent(server, 4)).toContain('This is the last reminder')
    expect(notices(h.events, 'warning')).toEqual([
      'The model ended its turn 4 times with the checkpoint "g" still open, so the agent stopped. The checkpoint is still active: send a message to continue.'
    ])
    expect(h.agent.checkpoint.active?.goal).toBe('g')
  })

  test('a warning, then the rewind: the warnings go with the exploration', async () => {
    const { h, server } = await setup([
      call('tu_cp', 'checkpoint', { goal: 'g' }),
      text('done?'),
      call('tu_rw', 'rewind', { report: 'the report' }),
      text('ok')
    ])
    await expect(h.agent.send('explore')).resolves.toEqual({
      status: 'completed',
      stopReason: 'end_turn'
    })
    expect(sent(server, 3)).not.toContain('Reminder 1 of 3')
    expect(sent(server, 3)).toContain('the report')
  })
})

describe('resume', () => {
  test('an open checkpoint is active again in a new agent, and rewind then works', async () => {
    const { h, server } = await setup([
      call('tu_cp', 'checkpoint', { goal: 'g' }),
      text('a'),
      text('b'),
      text('c'),
      text('d')
    ])
    await h.agent.send('explore')
    const entry = h.agent.checkpoint.active?.entryUuid
    server.push(call('tu_rw', 'rewind', { report: 'resumed report' }), text('ok'))
    const resumed = h.reopen(apiModel(server.url))
    expect(resumed.checkpoint.active).toMatchObject({ goal: 'g', entryUuid: entry })
    await expect(resumed.send('finish it')).resolves.toMatchObject({ status: 'completed' })
    const summary = h.store
      .tree()
      .activePath()
      .find((r) => r.type === 'branch_summary')
    expect(summary?.parentUuid).toBe(entry)
  })

  test('a completed checkpoint makes rewind answer "already completed" after resume', async () => {
    const { h, server } = await setup([
      call('tu_cp', 'checkpoint', { goal: 'g' }),
      call('tu_rw', 'rewind', { report: 'r' }),
      text('ok')
    ])
    await h.agent.send('explore')
    server.push(call('tu_rw2', 'rewind', { report: 'again' }), text('fine'))
    const resumed = h.reopen(apiModel(server.url))
    expect(resumed.checkpoint.active).toBeNull()
    expect(resumed.checkpoint.lastCompleted?.report).toBe('r')
    await resumed.send('rewind again')
    expect(sent(server, 4)).toContain(ALREADY_COMPLETED)
    // One summary and one report: nothing was applied a second time.
    expect(h.store.tree().summaries()).toHaveLength(2)
  })

  test('a stale rewind result on the branch is never applied again', async () => {
    const { h, server } = await setup([])
    // A checkpoint, then a rewind whose result reached the log but whose apply never happened.
    h.store.appendMessage({ role: 'user', content: 'explore' })
    h.store.appendMessage({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'tu_cp', name: 'checkpoint', input: { goal: 'g' } }]
    })
    const entry = h.store.appendMessage(
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'tu_cp', content: 'Checkpoint: g' }]
      },
      { toolDetails: { tu_cp: { goal: 'g', startedAt: '2026-01-01T00:00:00.000Z' } } }
    )
    h.store.appendMessage({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'tu_rw', name: 'rewind', input: { report: 'stale' } }]
    })
    h.store.appendMessage(
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'tu_rw', content: REWIND_REQUESTED }]
      },
      { toolDetails: { tu_rw: { report: 'stale', rewound: true } } }
    )
    const resumed = h.reopen(apiModel(server.url))
    expect(resumed.checkpoint.active?.entryUuid).toBe(entry.uuid)
    expect(resumed.checkpoint.pending).toBeNull()
    server.push(text('still exploring'), call('tu_rw2', 'rewind', { report: 'fresh' }), text('ok'))
    await resumed.send('go on')
    // The first answer ended the turn with the checkpoint open: a reminder, not the stale rewind.
    expect(sent(server, 1)).toContain('Reminder 1 of 3')
    const summaries = h.store.tree().summaries()
    expect(summaries.map((s) => s.kind)).toEqual(['branch_summary', 'rewind_report'])
    expect(summaries[0]?.summary).toBe('fresh')
    expect(summaries[0]?.fromId).toBe(entry.uuid)
  })

  test('a process killed between checkpoint and rewind, then resumed and rewound', async () => {
    const ws = makeWorkspace()
    const script = join(ws.base, 'script.json')
    writeFileSync(
      script,
      JSON.stringify({
        rules: [
          {
            match: 'explore',
            responses: [
              [{ type: 'tool_use', name: 'checkpoint', input: { goal: 'map the project' } }],
              [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 60' } }],
              [{ type: 'text', text: 'Explored; the report is kept.' }]
            ]
          },
          {
            match: 'now rewind',
            responses: [
              [{ type: 'tool_use', name: 'rewind', input: { report: 'one file, config.py' } }]
            ]
          }
        ]
      })
    )
    const childScript = join(process.cwd(), 'test/support/checkpoint-child.ts')
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', childScript, ws.base, ws.root, script, 'explore the project'],
      { stdio: ['ignore', 'pipe', 'pipe'] }
    )
    const exited = new Promise((resolve) => child.on('exit', resolve))
    const sessionFile = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /EXPLORING (.+)\n/.exec(out)
        if (m?.[1] !== undefined) resolve(m[1])
      })
      child.on('exit', (code) => reject(new Error(`the child exited (${code}) before exploring`)))
    })
    child.kill('SIGKILL')
    await exited

    // The killed process left the Bash call unanswered and its writer lock behind.
    const store = SessionStore.open(sessionFile)
    expect(store.readOnlyReason).toBeNull()
    const agent = new Agent({
      session: store,
      cwd: ws.root,
      model: await ScriptedModel.load(script),
      tools: builtinTools(),
      permissionMode: 'bypassPermissions',
      askPermission: async () => true,
      guard: ws.guard,
      onCheckpoint: async () => {},
      onEvent: () => {},
      checkpointTools: true
    })
    expect(agent.checkpoint.active?.goal).toBe('map the project')
    await expect(agent.send('now rewind')).resolves.toMatchObject({ status: 'completed' })
    const path = store.tree().activePath()
    const summary = path.find((r) => r.type === 'branch_summary')
    expect(summary?.type === 'branch_summary' && summary.summary).toBe('one file, config.py')
    const entry = path.find(
      (r) => r.type === 'user' && JSON.stringify(r).includes('Checkpoint: map the project')
    )
    expect(entry).toBeDefined()
    expect(summary?.parentUuid).toBe(entry?.uuid)
    expect(JSON.stringify(path)).not.toContain('sleep 60')
    expect(JSON.stringify(path.at(-1))).toContain('Explored; the report is kept.')
    store.close()
  })
})
