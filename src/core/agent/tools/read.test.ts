import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTool } from './read'
import { makeWorkspace } from '../../../../test/support/tool-workspace'
import { runTool } from './tool'
import type { Tool } from './tool'

const read = readTool as Tool

describe('Read refuses', () => {
  it('a missing file, a directory and a binary file, recording nothing', async () => {
    const ws = makeWorkspace()
    mkdirSync(join(ws.root, 'src'))
    ws.put('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))
    expect(await runTool(read, { file_path: 'nope.py' }, ws.ctx)).toEqual({
      isError: true,
      content: 'File does not exist: nope.py'
    })
    expect((await runTool(read, { file_path: 'src' }, ws.ctx)).content).toBe(
      'src is a directory, not a file. Use Glob to list it.'
    )
    expect((await runTool(read, { file_path: 'logo.png' }, ws.ctx)).content).toBe(
      'logo.png is a binary file; the file tools handle text only.'
    )
    expect(ws.ctx.fileState.canEdit(join(ws.root, 'logo.png'))).toBe(false)
  })

  it('paths outside the workspace, through a symlink leading out, and into .git', async () => {
    const ws = makeWorkspace()
    writeFileSync(join(ws.base, 'secret.txt'), 'secret')
    mkdirSync(join(ws.root, '.git'))
    ws.put('.git/config', '[core]')
    symlinkSync(ws.base, join(ws.root, 'up'))
    for (const file_path of [
      '../secret.txt',
      join(ws.base, 'secret.txt'),
      'up/secret.txt',
      '.git/config'
    ]) {
      const out = await runTool(read, { file_path }, ws.ctx)
      expect(out.isError).toBe(true)
      expect(out.content).toMatch(/^Refused path .*(outside the workspace|symlink|\.git folder)/)
      expect(out.content).not.toContain('secret\n')
    }
  })

  it('a whole read of a file over 256 KB, but reads a window of it', async () => {
    const ws = makeWorkspace()
    ws.put('big.log', 'x'.repeat(100) + '\n'.repeat(1) + 'line\n'.repeat(60_000))
    const whole = await runTool(read, { file_path: 'big.log' }, ws.ctx)
    expect(whole.isError).toBe(true)
    expect(whole.content).toMatch(/over the 256 KB a whole read allows/)
    const window = await runTool(read, { file_path: 'big.log', offset: 3, limit: 2 }, ws.ctx)
    expect(window.content).toBe(
      '     3\tline\n     4\tline\n\n(big.log has 60001 lines; shown 3-4. Use offset to read more.)'
    )
  })
})

describe('Read', () => {
  it('numbers lines like cat -n and records the file as read', async () => {
    const ws = makeWorkspace()
    const abs = ws.put('config.py', 'DEBUG = True\nHOST = "localhost"\n')
    const out = await runTool(read, { file_path: 'config.py' }, ws.ctx)
    expect(out.isError).toBe(false)
    expect(out.content).toBe('     1\tDEBUG = True\n     2\tHOST = "localhost"')
    expect(ws.ctx.fileState.canEdit(abs)).toBe(true)
  })

  it('accepts an absolute path inside and a path under an allowed outside root', async () => {
    const ws = makeWorkspace()
    const shared = join(ws.base, 'shared')
    mkdirSync(shared)
    writeFileSync(join(shared, 'notes.md'), 'hello\r\nworld')
    ws.put('a.txt', 'a')
    expect((await runTool(read, { file_path: join(ws.root, 'a.txt') }, ws.ctx)).content).toBe(
      '     1\ta'
    )
    const refused = await runTool(read, { file_path: join(shared, 'notes.md') }, ws.ctx)
    expect(refused.content).toMatch(/the user has not allowed that folder/)
    ws.ctx.allowedOutsideRoots = [shared]
    expect((await runTool(read, { file_path: join(shared, 'notes.md') }, ws.ctx)).content).toBe(
      '     1\thello\n     2\tworld'
    )
  })

  it('reads from an offset, treats offset 0 as the start, warns past the end and on empty files', async () => {
    const ws = makeWorkspace()
    ws.put('five.txt', 'a\nb\nc\nd\ne\n')
    ws.put('empty.txt', '')
    expect((await runTool(read, { file_path: 'five.txt', offset: 4 }, ws.ctx)).content).toBe(
      '     4\td\n     5\te'
    )
    expect(
      (await runTool(read, { file_path: 'five.txt', offset: 0, limit: 1 }, ws.ctx)).content
    ).toMatch(/^ {5}1\ta\n\n\(five.txt has 5 lines; shown 1-1/)
    expect((await runTool(read, { file_path: 'five.txt', offset: 9 }, ws.ctx)).content).toBe(
      '<system-reminder>Warning: five.txt has 5 lines, fewer than the offset 9.</system-reminder>'
    )
    expect((await runTool(read, { file_path: 'empty.txt' }, ws.ctx)).content).toBe(
      '<system-reminder>Warning: empty.txt exists but is empty.</system-reminder>'
    )
  })

  it('truncates very long lines', async () => {
    const ws = makeWorkspace()
    ws.put('min.js', 'y'.repeat(5000))
    const out = await runTool(read, { file_path: 'min.js' }, ws.ctx)
    expect(out.content).toBe(`     1\t${'y'.repeat(2000)}… [line truncated]`)
  })
})

/** Bytes this process has read through read(2) so far (Linux's /proc/self/io). */
function bytesRead(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1])
}

describe.skipIf(process.platform !== 'linux')('Read of a window of a huge file', () => {
  it('reads as far as the window, not the whole file (issue 26: 1.9 GB read for one line)', async () => {
    const ws = makeWorkspace()
    // 10,000 lines of text, then a 600 MB hole: sparse, costing no disk.
    const head = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
    ws.put('huge.log', head)
    truncateSync(join(ws.root, 'huge.log'), 600 * 1024 * 1024)
    const before = bytesRead()
    const one = await runTool(read, { file_path: 'huge.log', limit: 1 }, ws.ctx)
    const later = await runTool(read, { file_path: 'huge.log', offset: 5000, limit: 2 }, ws.ctx)
    expect(bytesRead() - before).toBeLessThan(2 * 1024 * 1024)
    expect(one.isError).toBe(false)
    expect(one.content).toBe(
      '     1\tline 1\n\n(huge.log is 600.0 MB; shown lines 1-1. Use offset to read more. A file this large is read only as far as asked, so Edit and Write cannot change it.)'
    )
    expect(later.content.split('\n').slice(0, 2)).toEqual([
      '  5000\tline 5000',
      '  5001\tline 5001'
    ])
    // Not read whole: Edit and Write may not change it.
    expect(ws.ctx.fileState.canEdit(join(ws.root, 'huge.log'))).toBe(false)
  })

  it('counts the lines of a window that reaches the end, and refuses a binary one at once', async () => {
    const ws = makeWorkspace()
    ws.put('big.txt', `${'x'.repeat(17 * 1024 * 1024)}\nlast line without newline`)
    const tail = await runTool(read, { file_path: 'big.txt', offset: 2, limit: 5 }, ws.ctx)
    expect(tail.content).toBe(
      '     2\tlast line without newline\n\n(big.txt is 17.0 MB, read only as far as asked, so Edit and Write cannot change it.)'
    )
    const first = await runTool(read, { file_path: 'big.txt', limit: 1 }, ws.ctx)
    expect(first.content).toBe(
      `     1\t${'x'.repeat(2000)}… [line truncated]\n\n(big.txt is 17.0 MB; shown lines 1-1. Use offset to read more. A file this large is read only as far as asked, so Edit and Write cannot change it.)`
    )
    ws.put('zeros.bin', Buffer.alloc(0))
    truncateSync(join(ws.root, 'zeros.bin'), 100 * 1024 * 1024)
    const before = bytesRead()
    expect((await runTool(read, { file_path: 'zeros.bin', limit: 1 }, ws.ctx)).content).toBe(
      'zeros.bin is a binary file; the file tools handle text only.'
    )
    expect(bytesRead() - before).toBeLessThan(1024 * 1024)
  })
})
