import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { editTool } from './edit'
import { readTool } from './read'
import { makeWorkspace } from '../../../../test/support/tool-workspace'
import type { TestWorkspace } from '../../../../test/support/tool-workspace'
import { runTool } from './tool'
import type { Tool } from './tool'

const edit = editTool as Tool
const read = readTool as Tool

async function workspaceWithRead(rel: string, content: string): Promise<TestWorkspace> {
  const ws = makeWorkspace()
  ws.put(rel, content)
  await runTool(read, { file_path: rel }, ws.ctx)
  return ws
}

describe('Edit refuses', () => {
  it('a file the agent has not read', async () => {
    const ws = makeWorkspace()
    ws.put('config.py', 'DEBUG = True\n')
    const out = await runTool(
      edit,
      { file_path: 'config.py', old_string: 'DEBUG', new_string: 'X' },
      ws.ctx
    )
    expect(out.content).toBe(
      'File has not been read yet. Read it first before writing to it. (config.py)'
    )
    expect(ws.read('config.py')).toBe('DEBUG = True\n')
  })

  it('a file that a command changed after it was read', async () => {
    const ws = await workspaceWithRead('config.py', 'DEBUG = True\n')
    ws.put('config.py', 'DEBUG = True\nEXTRA = 1\n')
    const out = await runTool(
      edit,
      { file_path: 'config.py', old_string: 'DEBUG = True', new_string: 'DEBUG = False' },
      ws.ctx
    )
    expect(out.content).toMatch(/^File has been modified since read/)
    expect(ws.read('config.py')).toBe('DEBUG = True\nEXTRA = 1\n')
  })

  it('a string that is not there, or not unique, naming it', async () => {
    const ws = await workspaceWithRead('a.py', 'x = 1\nx = 1\n')
    const missing = await runTool(
      edit,
      { file_path: 'a.py', old_string: 'y = 2', new_string: 'y = 3' },
      ws.ctx
    )
    expect(missing).toEqual({
      isError: true,
      content: 'String to replace not found in a.py.\nString: y = 2'
    })
    const twice = await runTool(
      edit,
      { file_path: 'a.py', old_string: 'x = 1', new_string: 'x = 2' },
      ws.ctx
    )
    expect(twice.isError).toBe(true)
    expect(twice.content).toMatch(
      /^Found 2 matches of the string to replace in a\.py, but replace_all is false\./
    )
    expect(ws.read('a.py')).toBe('x = 1\nx = 1\n')
    expect(ws.guard.calls).toEqual([])
  })

  it('a no-op edit, a missing file, and creating over an existing file', async () => {
    const ws = await workspaceWithRead('a.py', 'x = 1\n')
    expect(
      (await runTool(edit, { file_path: 'a.py', old_string: 'x', new_string: 'x' }, ws.ctx)).content
    ).toBe('No changes to make: old_string and new_string are exactly the same.')
    expect(
      (await runTool(edit, { file_path: 'b.py', old_string: 'x', new_string: 'y' }, ws.ctx)).content
    ).toBe('File does not exist: b.py')
    expect(
      (await runTool(edit, { file_path: 'a.py', old_string: '', new_string: 'y' }, ws.ctx)).content
    ).toBe('Cannot create a.py: it already exists. Give the text to replace in old_string.')
    expect(ws.read('a.py')).toBe('x = 1\n')
  })

  it('a binary file, a symlink leading out, and .git', async () => {
    const ws = makeWorkspace()
    ws.put('blob.bin', Buffer.from([1, 0, 2]))
    mkdirSync(join(ws.base, 'outside'))
    symlinkSync(join(ws.base, 'outside'), join(ws.root, 'out'))
    ws.put('.git/HEAD', 'ref: refs/heads/main\n')
    const binary = await runTool(
      edit,
      { file_path: 'blob.bin', old_string: 'a', new_string: 'b' },
      ws.ctx
    )
    expect(binary.content).toBe('blob.bin is a binary file; the file tools handle text only.')
    for (const file_path of ['out/x.txt', '.git/HEAD']) {
      const out = await runTool(edit, { file_path, old_string: '', new_string: 'x' }, ws.ctx)
      expect(out.content).toMatch(/^Refused path/)
    }
    expect(ws.read('.git/HEAD')).toBe('ref: refs/heads/main\n')
  })

  it('when the backup hook throws: the file stays intact', async () => {
    const ws = await workspaceWithRead('a.py', 'x = 1\n')
    ws.guard.failing.beforeWrite = 'blob store unwritable'
    const out = await runTool(
      edit,
      { file_path: 'a.py', old_string: 'x = 1', new_string: 'x = 2' },
      ws.ctx
    )
    expect(out).toEqual({
      isError: true,
      content: 'could not back up a.py: blob store unwritable; nothing was written'
    })
    expect(ws.read('a.py')).toBe('x = 1\n')
  })
})

describe('Edit', () => {
  it("replaces a unique string and answers with the seed's snippet", async () => {
    const ws = await workspaceWithRead('config.py', 'DEBUG = True\nHOST = "localhost"\n')
    const out = await runTool(
      edit,
      {
        file_path: 'config.py',
        old_string: 'DEBUG = True\n',
        new_string: 'DEBUG = True\nTIMEOUT = 30\n'
      },
      ws.ctx
    )
    expect(out.isError).toBe(false)
    expect(out.content).toBe(
      'The file config.py has been updated (1 replacement). Snippet:\n' +
        '     1\tDEBUG = True\n     2\tTIMEOUT = 30\n     3\tHOST = "localhost"'
    )
    expect(ws.read('config.py')).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    const abs = join(ws.root, 'config.py')
    expect(ws.guard.calls).toEqual([
      {
        hook: 'beforeWrite',
        path: abs,
        tool: 'Edit',
        newContent: 'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n',
        diskBefore: 'DEBUG = True\nHOST = "localhost"\n'
      },
      { hook: 'afterWrite', path: abs, tool: 'Edit' }
    ])
    // Its own edit counts as seen: a second edit needs no new read.
    const second = await runTool(
      edit,
      { file_path: 'config.py', old_string: 'DEBUG = True\n', new_string: '' },
      ws.ctx
    )
    expect(second.content).toBe(
      'The file config.py has been updated (1 replacement). Snippet:\n' +
        '     1\tTIMEOUT = 30\n     2\tHOST = "localhost"'
    )
  })

  it('shows only the lines around the change in a long file', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`)
    const ws = await workspaceWithRead('long.txt', lines.join('\n') + '\n')
    const out = await runTool(
      edit,
      { file_path: 'long.txt', old_string: 'line 15\n', new_string: 'fifteen\n' },
      ws.ctx
    )
    expect(out.content.split('\n').slice(1)).toEqual([
      '    11\tline 11',
      '    12\tline 12',
      '    13\tline 13',
      '    14\tline 14',
      '    15\tfifteen',
      '    16\tline 16',
      '    17\tline 17',
      '    18\tline 18',
      '    19\tline 19'
    ])
  })

  it('replaces every occurrence with replace_all, keeping $ patterns literal', async () => {
    const ws = await workspaceWithRead('a.js', 'let a = 1\nlet b = a\n')
    const out = await runTool(
      edit,
      { file_path: 'a.js', old_string: 'let', new_string: "const $&'", replace_all: true },
      ws.ctx
    )
    expect(out.content).toMatch(/^The file a\.js has been updated \(2 replacements\)\. Snippet:/)
    expect(ws.read('a.js')).toBe("const $&' a = 1\nconst $&' b = a\n")
  })

  it('edits a CRLF file with LF strings and keeps its CRLF endings', async () => {
    const ws = await workspaceWithRead('win.txt', 'one\r\ntwo\r\nthree\r\n')
    const out = await runTool(
      edit,
      { file_path: 'win.txt', old_string: 'one\ntwo', new_string: 'one\n2' },
      ws.ctx
    )
    expect(out.isError).toBe(false)
    expect(readFileSync(join(ws.root, 'win.txt'), 'utf8')).toBe('one\r\n2\r\nthree\r\n')
  })

  it('keeps each line ending of a file mixing CRLF and LF (issue 26: every LF became CRLF)', async () => {
    const raw = 'a\r\nb\nc\r\nd\ne\r\n'
    const ws = await workspaceWithRead('mixed.txt', raw)
    // A line of LF lines, a break across a CRLF, and one inside a line that ends with LF.
    const edits = [
      { old_string: 'b', new_string: 'b1\nb2' },
      { old_string: 'c\nd', new_string: 'C\nD\nD2' },
      { old_string: 'e', new_string: 'E' }
    ]
    for (const change of edits) {
      const out = await runTool(edit, { file_path: 'mixed.txt', ...change }, ws.ctx)
      expect(out.isError).toBe(false)
    }
    expect(readFileSync(join(ws.root, 'mixed.txt'), 'utf8')).toBe(
      'a\r\nb1\nb2\nC\r\nD\r\nD2\nE\r\n'
    )
  })

  it('creates a new file from an empty old_string, without a read', async () => {
    const ws = makeWorkspace()
    const out = await runTool(
      edit,
      { file_path: 'src/new.ts', old_string: '', new_string: 'export {}\n' },
      ws.ctx
    )
    expect(out).toMatchObject({ isError: false, content: 'Created src/new.ts' })
    expect(ws.read('src/new.ts')).toBe('export {}\n')
  })
})

describe('what the user approves', () => {
  const detail = (old_string: string, new_string: string) =>
    edit.approvalDetail?.({ file_path: 'config.py', old_string, new_string })?.text

  it('shows the lines old and new share as context, not as removed and added', () => {
    expect(detail('DEBUG = True', 'DEBUG = True\nTIMEOUT = 30')).toBe(
      '  DEBUG = True\n+ TIMEOUT = 30'
    )
    expect(detail('a\nb\nc\n', 'a\nB\nc\n')).toBe('  a\n- b\n+ B\n  c')
  })

  it('shows a change with nothing shared as removed then added, a removal as removed only', () => {
    expect(detail('x = 1', 'y = 2')).toBe('- x = 1\n+ y = 2')
    expect(detail('a\nb\n', 'a\n')).toBe('  a\n- b')
  })
})
