// The demo files `npm start` uses without a key: demo/scripted-model.json over a copy of
// demo/workspace gives the seed's walk-through (Read before Edit, as the tools require) in Chinese
// and in English, and the checkpoint → explore → rewind rule keeps only its report.
import { cpSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ScriptedModel } from '../src/core/agent/model/scripted'
import type { PermissionMode } from '../src/shared/messages'
import { makeHarness } from './support/agent-harness'

const DEMO = join(import.meta.dirname, '..', 'demo')

async function demoHarness(checkpointTools = false, permissionMode?: PermissionMode) {
  const h = makeHarness({
    model: await ScriptedModel.load(join(DEMO, 'scripted-model.json')),
    checkpointTools,
    ...(permissionMode === undefined ? {} : { permissionMode })
  })
  cpSync(join(DEMO, 'workspace'), h.ws.root, { recursive: true })
  return h
}

function toolCalls(h: Awaited<ReturnType<typeof demoHarness>>): string[] {
  return h.events.flatMap((e) =>
    e.type === 'tool_start' ? [h.agent.describeToolCall(e.name, e.input)] : []
  )
}

function toolErrors(h: Awaited<ReturnType<typeof demoHarness>>): string[] {
  return h.events.flatMap((e) => (e.type === 'tool_end' && e.isError ? [e.text] : []))
}

describe.each([
  [
    '中文',
    '给 config.py 加一个 TIMEOUT = 30',
    '顺便把 DEBUG 删掉，再建一个 utils.py',
    '只建 utils.py，DEBUG 先留着'
  ],
  [
    'English',
    'add TIMEOUT = 30 to config.py',
    'also remove DEBUG and create utils.py',
    'only create utils.py, keep DEBUG'
  ]
])('the walk-through (%s)', (_lang, first, second, third) => {
  test('turn 1 reads then edits; turn 2 edits and writes', async () => {
    const h = await demoHarness()
    await expect(h.agent.send(first)).resolves.toMatchObject({ status: 'completed' })
    expect(readFileSync(join(h.ws.root, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n'
    )
    // Six messages: the prompt, Read, its result, Edit, its result, the answer.
    expect(h.store.tree().activePath()).toHaveLength(6)
    await h.agent.send(second)
    expect(readFileSync(join(h.ws.root, 'config.py'), 'utf8')).toBe(
      'TIMEOUT = 30\nHOST = "localhost"\n'
    )
    expect(readFileSync(join(h.ws.root, 'utils.py'), 'utf8').split('\n')).toHaveLength(6)
    expect(toolCalls(h)).toEqual([
      'Read(config.py)',
      'Edit(config.py)',
      'Edit(config.py)',
      'Write(utils.py)'
    ])
    expect(toolErrors(h)).toEqual([])
  })

  // The README says so: the app's default mode asks before each Write and Edit.
  test('in the default permission mode, the two turns ask three times', async () => {
    const h = await demoHarness(false, 'default')
    await h.agent.send(first)
    await h.agent.send(second)
    expect(h.permissionRequests.map((request) => request.summary)).toEqual([
      'Edit(config.py)',
      'Edit(config.py)',
      'Write(utils.py)'
    ])
  })

  test('the retyped turn 2 only writes utils.py', async () => {
    const h = await demoHarness()
    await h.agent.send(first)
    await h.agent.send(third)
    expect(readFileSync(join(h.ws.root, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n'
    )
    expect(existsSync(join(h.ws.root, 'utils.py'))).toBe(true)
    expect(toolErrors(h)).toEqual([])
  })
})

test.each(['explore the project with a checkpoint', '用检查点探索一下项目'])(
  'the checkpoint rule (%s): explore, rewind, and only the report stays',
  async (prompt) => {
    const h = await demoHarness(true)
    await expect(h.agent.send(prompt)).resolves.toMatchObject({ status: 'completed' })
    expect(toolErrors(h)).toEqual([])
    const path = h.store.tree().activePath()
    expect(path.map((r) => r.type)).toEqual([
      'user',
      'assistant',
      'user',
      'branch_summary',
      'custom_message',
      'assistant'
    ])
    expect(JSON.stringify(path)).not.toContain('Glob')
    expect(h.store.tree().summaries()).toHaveLength(2)
  }
)

test('a prompt the demo does not know gets the help text', async () => {
  const h = await demoHarness()
  await h.agent.send('hello?')
  const help = JSON.stringify(h.store.tree().activePath().at(-1))
  expect(help).toContain('This is the offline demo model')
  // The same help reaches the window and the terminal: it names how to rewind in each, so a
  // window user is not told to type a chat command (issue 12).
  expect(help).toContain('click Rewind here')
  expect(help).toContain('in the terminal chat: /rewind 2')
})
