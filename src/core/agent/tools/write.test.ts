import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  chmodSync
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTool } from './read'
import { makeWorkspace } from '../../../../test/support/tool-workspace'
import { runTool } from './tool'
import type { Tool } from './tool'
import { writeTool } from './write'

const write = writeTool as Tool
const read = readTool as Tool

describe('Write refuses', () => {
  it('to replace a file the agent has not read, and leaves it intact', async () => {
    const ws = makeWorkspace()
    ws.put('config.py', 'DEBUG = True\n')
    const out = await runTool(write, { file_path: 'config.py', content: 'x' }, ws.ctx)
    expect(out).toEqual({
      isError: true,
      content: 'File has not been read yet. Read it first before writing to it. (config.py)'
    })
    expect(ws.read('config.py')).toBe('DEBUG = True\n')
    expect(ws.guard.calls).toEqual([])
  })

  it('to replace a file that changed on disk since it was read', async () => {
    const ws = makeWorkspace()
    ws.put('config.py', 'DEBUG = True\n')
    await runTool(read, { file_path: 'config.py' }, ws.ctx)
    ws.put('config.py', 'DEBUG = False\n')
    const out = await runTool(write, { file_path: 'config.py', content: 'x' }, ws.ctx)
    expect(out.isError).toBe(true)
    expect(out.content).toMatch(
      /^File has been modified since read, either by the user or by a linter/
    )
    expect(ws.read('config.py')).toBe('DEBUG = False\n')
  })

  it('paths outside, through a symlink leading out, into .git, and onto a directory', async () => {
    const ws = makeWorkspace()
    mkdirSync(join(ws.base, 'outside'))
    symlinkSync(join(ws.base, 'outside'), join(ws.root, 'link'))
    mkdirSync(join(ws.root, '.git'))
    mkdirSync(join(ws.root, 'src'))
    for (const file_path of [
      '../escaped.txt',
      'link/new.txt',
      '.git/hooks/pre-commit',
      '/tmp/x.txt'
    ]) {
      const out = await runTool(write, { file_path, content: 'x' }, ws.ctx)
      expect(out.isError, file_path).toBe(true)
      expect(out.content).toMatch(/^Refused path/)
    }
    expect(readdirSync(join(ws.base, 'outside'))).toEqual([])
    expect(existsSync(join(ws.base, 'escaped.txt'))).toBe(false)
    expect(readdirSync(join(ws.root, '.git'))).toEqual([])
    expect((await runTool(write, { file_path: 'src', content: 'x' }, ws.ctx)).content).toBe(
      'src is a directory, not a file. Use Glob to list it.'
    )
    expect(ws.guard.calls).toEqual([])
  })

  it('when the backup hook throws: nothing is written, the file stays intact', async () => {
    const ws = makeWorkspace()
    ws.put('config.py', 'DEBUG = True\n')
    await runTool(read, { file_path: 'config.py' }, ws.ctx)
    ws.guard.failing.beforeWrite = 'disk full'
    const out = await runTool(write, { file_path: 'config.py', content: 'x' }, ws.ctx)
    expect(out).toEqual({
      isError: true,
      content: 'could not back up config.py: disk full; nothing was written'
    })
    expect(ws.read('config.py')).toBe('DEBUG = True\n')
    const created = await runTool(write, { file_path: 'new/utils.py', content: 'x' }, ws.ctx)
    expect(created.isError).toBe(true)
    expect(existsSync(join(ws.root, 'new'))).toBe(false)
    expect(ws.guard.calls.map((c) => c.hook)).toEqual(['beforeWrite', 'beforeWrite'])
  })
})

describe('Write', () => {
  it('creates a new file (and its folders) without a read, backing up first', async () => {
    const ws = makeWorkspace()
    const content = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n'
    const out = await runTool(write, { file_path: 'pkg/utils.py', content }, ws.ctx)
    expect(out.isError).toBe(false)
    expect(out.content).toBe('Created pkg/utils.py (5 lines)')
    expect(ws.read('pkg/utils.py')).toBe(content)
    const abs = join(ws.root, 'pkg/utils.py')
    expect(ws.guard.calls).toEqual([
      { hook: 'beforeWrite', path: abs, tool: 'Write', newContent: content, diskBefore: null },
      { hook: 'afterWrite', path: abs, tool: 'Write' }
    ])
    // Written by the agent counts as seen: it may write it again.
    const again = await runTool(write, { file_path: 'pkg/utils.py', content: 'x\n' }, ws.ctx)
    expect(again.content).toBe('Updated pkg/utils.py (1 lines)')
  })

  it('replaces a file it read, keeping its mode, leaving no temp file', async () => {
    const ws = makeWorkspace()
    const abs = ws.put('run.sh', 'echo old\n')
    chmodSync(abs, 0o755)
    await runTool(read, { file_path: 'run.sh' }, ws.ctx)
    const out = await runTool(write, { file_path: abs, content: 'echo new\n' }, ws.ctx)
    expect(out.content).toBe('Updated run.sh (1 lines)')
    expect(readFileSync(abs, 'utf8')).toBe('echo new\n')
    expect(statSync(abs).mode & 0o777).toBe(0o755)
    expect(readdirSync(ws.root)).toEqual(['run.sh'])
    expect(ws.guard.calls[0]).toMatchObject({ hook: 'beforeWrite', diskBefore: 'echo old\n' })
    expect((out.details as { patch: string }).patch).toContain('-echo old\n+echo new')
  })

  it('writes through a symlink inside the workspace to its target', async () => {
    const ws = makeWorkspace()
    ws.put('real.txt', 'one\n')
    symlinkSync('real.txt', join(ws.root, 'alias.txt'))
    await runTool(read, { file_path: 'alias.txt' }, ws.ctx)
    await runTool(write, { file_path: 'alias.txt', content: 'two\n' }, ws.ctx)
    expect(lstatSync(join(ws.root, 'alias.txt')).isSymbolicLink()).toBe(true)
    expect(ws.read('real.txt')).toBe('two\n')
  })

  it('reports a failing after-hook but keeps the write', async () => {
    const ws = makeWorkspace()
    ws.guard.failing.afterWrite = 'index locked'
    const out = await runTool(write, { file_path: 'a.txt', content: 'a' }, ws.ctx)
    expect(out.isError).toBe(false)
    expect(out.content).toBe(
      'Created a.txt (1 lines)\nWarning: file history could not record this change (index locked); rewinding it may not restore it.'
    )
    expect(ws.read('a.txt')).toBe('a')
  })
})
