import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_GREP_LINES, createGrepTool, grepTool } from './grep'
import { makeWorkspace } from '../../../../test/support/tool-workspace'
import type { TestWorkspace } from '../../../../test/support/tool-workspace'
import { runTool } from './tool'
import type { Tool } from './tool'

const grep = grepTool as Tool

function tree(): TestWorkspace {
  const ws = makeWorkspace()
  ws.put('.gitignore', 'dist/\n')
  ws.put('config.py', 'DEBUG = True\nHOST = "localhost"\n')
  ws.put('src/app.ts', 'const debug = false\n// TODO: remove DEBUG\n')
  ws.put('src/win.ts', 'DEBUG_MODE\r\nother\r\n')
  ws.put('dist/app.js', 'DEBUG\n')
  ws.put('.git/config', 'DEBUG\n')
  ws.put('image.bin', Buffer.concat([Buffer.from('DEBUG'), Buffer.from([0, 1, 2])]))
  return ws
}

describe('Grep refuses', () => {
  it('an invalid regular expression, a missing path, a path outside', async () => {
    const ws = tree()
    const bad = await runTool(grep, { pattern: '(unclosed' }, ws.ctx)
    expect(bad.isError).toBe(true)
    expect(bad.content).toMatch(/^Invalid regular expression: .*\(unclosed/)
    expect((await runTool(grep, { pattern: 'x', path: 'nope' }, ws.ctx)).content).toBe(
      'Path does not exist: nope'
    )
    expect((await runTool(grep, { pattern: 'x', path: '..' }, ws.ctx)).content).toMatch(
      /^Refused path/
    )
  })
})

describe('Grep', () => {
  it('stops when the call is cancelled', async () => {
    const ws = tree()
    ws.abort.abort()
    await expect(grepTool.execute({ pattern: 'DEBUG' }, ws.ctx)).rejects.toThrow(
      'Grep was cancelled.'
    )
  })

  it('prints path:line:text for matches, skipping ignored, .git and binary files', async () => {
    const ws = tree()
    const out = await runTool(grep, { pattern: 'DEBUG' }, ws.ctx)
    expect(out).toEqual({
      isError: false,
      content: [
        'config.py:1:DEBUG = True',
        'src/app.ts:2:// TODO: remove DEBUG',
        'src/win.ts:1:DEBUG_MODE'
      ].join('\n'),
      details: { matches: 3, files: 3 }
    })
  })

  it('takes regular expressions, and filters by a name glob at any depth or a path glob', async () => {
    const ws = tree()
    expect((await runTool(grep, { pattern: '^[A-Z]+ = ', glob: '*.py' }, ws.ctx)).content).toBe(
      'config.py:1:DEBUG = True\nconfig.py:2:HOST = "localhost"'
    )
    expect((await runTool(grep, { pattern: '[Dd]ebug', glob: '*.ts' }, ws.ctx)).content).toBe(
      'src/app.ts:1:const debug = false'
    )
    expect(
      (await runTool(grep, { pattern: 'DEBUG', glob: 'src/*.ts', path: '.' }, ws.ctx)).content
    ).toBe('src/app.ts:2:// TODO: remove DEBUG\nsrc/win.ts:1:DEBUG_MODE')
  })

  it('searches one file when path is a file, and says when nothing matches', async () => {
    const ws = tree()
    expect((await runTool(grep, { pattern: 'HOST', path: 'config.py' }, ws.ctx)).content).toBe(
      'config.py:2:HOST = "localhost"'
    )
    expect(
      (await runTool(grep, { pattern: 'HOST', path: join(ws.root, 'src') }, ws.ctx)).content
    ).toBe('No matches found')
  })

  it(`shows at most ${MAX_GREP_LINES} lines and counts the rest`, async () => {
    const ws = makeWorkspace()
    ws.put('many.txt', 'hit\n'.repeat(MAX_GREP_LINES + 7))
    const out = await runTool(grep, { pattern: 'hit' }, ws.ctx)
    const lines = out.content.split('\n')
    expect(lines).toHaveLength(MAX_GREP_LINES + 1)
    expect(lines[0]).toBe('many.txt:1:hit')
    expect(lines.at(-1)).toBe(
      '(7 more matching lines not shown: narrow the pattern, path or glob.)'
    )
  })
})

describe('Grep on a pattern that backtracks for ever', () => {
  // (a+)+$ against a long run of "a" with a "b" at its end tries every way to split the run.
  const catastrophic = '(a+)+$'
  const slowLine = `${'a'.repeat(40)}b`

  it('answers at its time limit with the matches found before it', async () => {
    const ws = makeWorkspace()
    ws.put('a-first.txt', 'aaa\n')
    ws.put('b-slow.txt', `${slowLine}\n`)
    ws.put('c-never.txt', 'aaaa\n')
    const out = await runTool(createGrepTool(1000) as Tool, { pattern: catastrophic }, ws.ctx)
    expect(out.isError).toBe(false)
    expect(out.content).toBe(
      'a-first.txt:1:aaa\n(Search stopped after 1 s: files after these were not searched. ' +
        'Narrow the path, or simplify the pattern: nested repetition such as (a+)+ or many stars in one name can take for ever.)'
    )
    expect(out.details).toEqual({ matches: 1, files: 1, timedOut: true })
  })

  it('ends when the call is cancelled while it searches', async () => {
    const ws = makeWorkspace()
    ws.put('slow.txt', `${slowLine}\n`)
    const running = runTool(grep, { pattern: catastrophic }, ws.ctx)
    // The worker is stuck on the line: only terminating it can end the call.
    setTimeout(() => ws.abort.abort(), 300)
    expect(await running).toEqual({ isError: true, content: 'Grep was cancelled.' })
  })

  it('skips a FIFO named as the path instead of waiting for a writer', async () => {
    const ws = makeWorkspace()
    execFileSync('mkfifo', [join(ws.root, 'pipe')])
    expect((await runTool(grep, { pattern: 'x', path: 'pipe' }, ws.ctx)).content).toBe(
      'No matches found'
    )
  })
})
