import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { builtinTools } from './index'
import { makeWorkspace } from '../../../../test/support/tool-workspace'
import { ToolError, runTool, toolDefinition } from './tool'
import type { Tool } from './tool'

function fakeTool(execute: Tool<{ n: number }>['execute']): Tool {
  const tool: Tool<{ n: number }> = {
    name: 'Probe',
    description: 'test tool',
    inputSchema: z.strictObject({ n: z.number() }),
    permission: 'read',
    describeCall: (input) => `Probe(${input.n})`,
    execute
  }
  return tool as Tool
}

describe('runTool', () => {
  it('turns invalid input into an error naming the problem, without running the tool', async () => {
    const { ctx } = makeWorkspace()
    let ran = false
    const tool = fakeTool(async () => {
      ran = true
      return { isError: false, content: 'ran' }
    })
    const missing = await runTool(tool, {}, ctx)
    expect(missing.isError).toBe(true)
    expect(missing.content).toMatch(/^Invalid input for Probe:/)
    expect(missing.content).toMatch(/→ at n/)
    const extra = await runTool(tool, { n: 1, surprise: true }, ctx)
    expect(extra.content).toMatch(/Unrecognized key: "surprise"/)
    const notObject = await runTool(tool, 'n=1', ctx)
    expect(notObject.isError).toBe(true)
    expect(ran).toBe(false)
  })

  it('turns a thrown error into an error output without a stack trace', async () => {
    const { ctx } = makeWorkspace()
    const refusal = await runTool(
      fakeTool(async () => {
        throw new ToolError('File has not been read yet.')
      }),
      { n: 1 },
      ctx
    )
    expect(refusal).toEqual({ isError: true, content: 'File has not been read yet.' })
    const crash = await runTool(
      fakeTool(async () => {
        throw new TypeError('boom')
      }),
      { n: 1 },
      ctx
    )
    expect(crash).toEqual({ isError: true, content: 'Probe failed: boom' })
    const odd = await runTool(
      fakeTool(async () => {
        throw 'a string'
      }),
      { n: 1 },
      ctx
    )
    expect(odd).toEqual({ isError: true, content: 'Probe failed: a string' })
  })

  it('does not start a tool whose call was already cancelled', async () => {
    const { ctx, abort } = makeWorkspace()
    abort.abort()
    const out = await runTool(
      fakeTool(async () => ({ isError: false, content: 'ran' })),
      { n: 1 },
      ctx
    )
    expect(out).toEqual({ isError: true, content: 'Probe was cancelled before it ran.' })
  })

  it('passes the parsed input and returns the output', async () => {
    const { ctx } = makeWorkspace()
    const out = await runTool(
      fakeTool(async (input) => ({ isError: false, content: `got ${input.n}` })),
      { n: 7 },
      ctx
    )
    expect(out).toEqual({ isError: false, content: 'got 7' })
  })
})

describe('builtinTools and toolDefinition', () => {
  it("lists Claude Code's tools in a fixed order with their permissions", () => {
    expect(builtinTools().map((t) => [t.name, t.permission])).toEqual([
      ['Read', 'read'],
      ['Write', 'edit'],
      ['Edit', 'edit'],
      ['Bash', 'execute'],
      ['Glob', 'read'],
      ['Grep', 'read']
    ])
  })

  it('gives the same bytes every time, strict object schemas with the documented fields', () => {
    const first = JSON.stringify(builtinTools().map(toolDefinition))
    expect(JSON.stringify(builtinTools().map(toolDefinition))).toBe(first)
    const byName = Object.fromEntries(builtinTools().map((t) => [t.name, toolDefinition(t)]))
    const shape = Object.fromEntries(
      Object.entries(byName).map(([name, def]) => [
        name,
        {
          properties: Object.keys(def.input_schema.properties as object),
          required: def.input_schema.required,
          additionalProperties: def.input_schema.additionalProperties
        }
      ])
    )
    expect(shape).toEqual({
      Read: {
        properties: ['file_path', 'offset', 'limit'],
        required: ['file_path'],
        additionalProperties: false
      },
      Write: {
        properties: ['file_path', 'content'],
        required: ['file_path', 'content'],
        additionalProperties: false
      },
      Edit: {
        properties: ['file_path', 'old_string', 'new_string', 'replace_all'],
        required: ['file_path', 'old_string', 'new_string'],
        additionalProperties: false
      },
      Bash: {
        properties: ['command', 'timeout'],
        required: ['command'],
        additionalProperties: false
      },
      Glob: { properties: ['pattern', 'path'], required: ['pattern'], additionalProperties: false },
      Grep: {
        properties: ['pattern', 'path', 'glob'],
        required: ['pattern'],
        additionalProperties: false
      }
    })
    expect(first).not.toContain('$schema')
    for (const def of Object.values(byName)) expect(def.input_schema.type).toBe('object')
  })

  it('describes calls in one line, relative to the workspace when given it', () => {
    const [read, write, edit, bash, glob, grep] = builtinTools()
    expect(read?.describeCall({ file_path: '/ws/src/config.py' }, '/ws')).toBe(
      'Read(src/config.py)'
    )
    expect(read?.describeCall({ file_path: '/elsewhere/a.txt' }, '/ws')).toBe(
      'Read(/elsewhere/a.txt)'
    )
    expect(write?.describeCall({ file_path: 'utils.py', content: '' })).toBe('Write(utils.py)')
    expect(edit?.describeCall({ file_path: 'config.py', old_string: 'a', new_string: 'b' })).toBe(
      'Edit(config.py)'
    )
    expect(bash?.describeCall({ command: 'npm test' })).toBe('Bash(npm test)')
    expect(bash?.describeCall({ command: 'cd x\nmake' })).toBe('Bash(cd x … +1 line)')
    expect(bash?.describeCall({ command: `${'a'.repeat(120)}\nb\nc` })).toBe(
      `Bash(${'a'.repeat(100)}… +2 lines)`
    )
    expect(glob?.describeCall({ pattern: '**/*.ts', path: 'src' })).toBe('Glob(**/*.ts in src)')
    expect(grep?.describeCall({ pattern: 'TODO' })).toBe('Grep(TODO)')
  })

  it('gives a permission prompt the whole of what it approves', () => {
    const [, write, edit, bash] = builtinTools()
    expect(bash?.approvalDetail?.({ command: 'cd x\nmake' })).toEqual({
      label: 'Command',
      text: 'cd x\nmake'
    })
    expect(write?.approvalDetail?.({ file_path: 'a.py', content: 'x = 1\n' })).toEqual({
      label: 'Content',
      text: 'x = 1\n'
    })
    expect(
      edit?.approvalDetail?.({ file_path: 'a.py', old_string: 'x = 1\r\n', new_string: 'x = 2' })
    ).toEqual({ label: 'Change', text: '- x = 1\r\n+ x = 2' })
  })
})
