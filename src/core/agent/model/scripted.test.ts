// The scripted model: a bad file is refused with its place named, then rules, positions, ids,
// stop reasons, the "nothing to say" answers, and streaming through the real loop.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { makeHarness } from '../../../../test/support/agent-harness'
import { createModelClient } from './create'
import { ScriptedModel, loadScriptFile, scriptedAnswer } from './scripted'
import type { ScriptFile } from './scripted'

function scriptFile(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-script-')), 'script.json')
  writeFileSync(file, content)
  return file
}

describe('loading', () => {
  test('a missing file, bad JSON and a wrong shape are clear errors', async () => {
    await expect(loadScriptFile('/nonexistent/script.json')).rejects.toThrow(
      'Scripted model file /nonexistent/script.json cannot be read: ENOENT'
    )
    await expect(loadScriptFile(scriptFile('{"rules": [\n  {"match": x}'))).rejects.toThrow(
      /^Not a scripted model file: .*script\.json \(line 2 is not valid JSON\)$/
    )
    const wrong = scriptFile(
      JSON.stringify({ rules: [{ match: 'x', responses: [[{ type: 'tool_use', input: {} }]] }] })
    )
    await expect(loadScriptFile(wrong)).rejects.toThrow(
      /is invalid at rules\[0\]\.responses\[0\]\[0\]/
    )
    await expect(createModelClient('scripted:')).rejects.toThrow('The scripted model needs a file')
  })

  test('an API model without a key says how to get one', async () => {
    await expect(createModelClient('claude-test', {})).rejects.toThrow(
      'Model claude-test needs an API key: set ANTHROPIC_API_KEY (or use --model scripted:FILE to run offline).'
    )
  })
})

describe('answers', () => {
  const script: ScriptFile = {
    rules: [
      {
        match: 'TIMEOUT',
        responses: [
          [{ type: 'tool_use', name: 'Read', input: { file_path: 'config.py' } }],
          [
            { type: 'tool_use', id: 'toolu_fixed', name: 'Edit', input: { file_path: 'config.py' } }
          ],
          [{ type: 'text', text: 'Done.' }]
        ]
      },
      { match: '', responses: [[{ type: 'text', text: 'catch-all' }]] }
    ]
  }

  test('the first matching rule answers responses[k]', () => {
    const first = scriptedAnswer(script, 'add TIMEOUT = 30', 0)
    expect(first.stopReason).toBe('tool_use')
    expect(first.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'Read',
      id: expect.stringMatching(/^toolu_[0-9a-f]{32}$/)
    })
    expect(scriptedAnswer(script, 'add TIMEOUT = 30', 1).content[0]).toMatchObject({
      id: 'toolu_fixed'
    })
    expect(scriptedAnswer(script, 'add TIMEOUT = 30', 2)).toEqual({
      content: [{ type: 'text', text: 'Done.' }],
      stopReason: 'end_turn'
    })
    expect(scriptedAnswer(script, 'something else', 0).content).toEqual([
      { type: 'text', text: 'catch-all' }
    ])
  })

  test('generated ids differ from call to call', () => {
    const a = scriptedAnswer(script, 'TIMEOUT', 0).content[0]
    const b = scriptedAnswer(script, 'TIMEOUT', 0).content[0]
    expect(a?.type === 'tool_use' && b?.type === 'tool_use' && a.id !== b.id).toBe(true)
  })

  test('no rule, no response left, no prompt: one text block saying so', () => {
    const only: ScriptFile = {
      rules: [{ match: 'hello', responses: [[{ type: 'text', text: 'hi' }]] }]
    }
    expect(scriptedAnswer(only, 'bye', 0).content).toEqual([
      { type: 'text', text: 'Scripted model: no rule matches the prompt "bye".' }
    ])
    expect(scriptedAnswer(only, 'hello', 1).content).toEqual([
      {
        type: 'text',
        text: 'Scripted model: the rule matching "hello" has no response left (answer 2 asked, 1 scripted).'
      }
    ])
    expect(scriptedAnswer(only, null, 0).stopReason).toBe('end_turn')
  })
})

describe('through the loop', () => {
  test('k counts the answers after the latest prompt on the branch; the answer streams in pieces', async () => {
    const file = scriptFile(
      JSON.stringify({
        rules: [
          {
            match: 'TIMEOUT',
            responses: [
              [{ type: 'tool_use', name: 'Read', input: { file_path: 'config.py' } }],
              [{ type: 'text', text: 'Read it, all good.' }]
            ]
          },
          { match: 'again', responses: [[{ type: 'text', text: 'Second prompt, first answer.' }]] }
        ]
      })
    )
    const model = await createModelClient(`scripted:${file}`)
    expect(model).toBeInstanceOf(ScriptedModel)
    expect(model.id).toBe(`scripted:${file}`)
    const h = makeHarness({ model })
    h.ws.put('config.py', 'DEBUG = True\n')
    await expect(h.agent.send('add TIMEOUT = 30')).resolves.toEqual({
      status: 'completed',
      stopReason: 'end_turn'
    })
    await h.agent.send('again please')
    const texts = h.store
      .tree()
      .activePath()
      .filter((r) => r.type === 'assistant')
      .map((r) => JSON.stringify(r.message.content))
    expect(texts).toHaveLength(3)
    expect(texts[1]).toContain('Read it, all good.')
    expect(texts[2]).toContain('Second prompt, first answer.')
    const pieces = h.events.filter((e) => e.type === 'block_delta')
    expect(pieces.length).toBeGreaterThan(3)
  })
})
