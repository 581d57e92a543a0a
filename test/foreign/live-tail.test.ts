// Following a Claude Code session another process is still writing (session/tail.ts): lines a
// child process appends join the same tree, a half-written last line waits for its newline, and
// a file replaced or cut shorter is read again from the start.
import { spawnSync } from 'node:child_process'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { claudeCode } from '../../src/core/session/foreign/claude-code'
import { SessionTail } from '../../src/core/session/tail'
import { copyFixture } from './cc-fixtures'

/** Appends `text` to `file` from another process, as a running Claude Code would. */
function appendFromChild(file: string, text: string): void {
  const child = spawnSync(
    process.execPath,
    ['-e', 'require("fs").appendFileSync(process.argv[1], process.argv[2])', file, text],
    { encoding: 'utf8' }
  )
  expect(child.status).toBe(0)
}

function split(file: string): { head: string; rest: string[] } {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
  const cut = lines.findIndex((l) => l.includes('"instead write a readme"'))
  return { head: lines.slice(0, cut).join('\n') + '\n', rest: lines.slice(cut) }
}

describe('a session file another program is writing', () => {
  it('takes appended lines into the same tree; a half-written line waits for its newline', () => {
    const cc = copyFixture('rewind-parallel')
    const { head, rest } = split(cc.file)
    writeFileSync(cc.file, head)
    const tail = new SessionTail(cc.file, claudeCode)
    const tree = tail.tree
    expect(tree?.checkpoints().map((c) => c.prompt)).toEqual([
      'create the config',
      'make two notes',
      'change the mode'
    ])

    const prompt = rest[0] ?? ''
    appendFromChild(cc.file, prompt.slice(0, 40))
    expect(tail.refresh()).toEqual({ linesRead: 0, reread: false })
    expect(tree?.leaves()).toHaveLength(1)

    appendFromChild(cc.file, `${prompt.slice(40)}\n${rest.slice(1).join('\n')}\n`)
    const refreshed = tail.refresh()
    expect(refreshed).toEqual({ linesRead: rest.length, reread: false })
    // The same tree object, grown: the new branch and its prompt are there.
    expect(tail.tree).toBe(tree)
    expect(tree?.checkpoints().map((c) => c.prompt)).toEqual([
      'create the config',
      'instead write a readme'
    ])
    expect(tree?.leaves()).toHaveLength(2)
    expect(tail.problems()).toEqual([])
  })

  it('reads a file replaced or cut shorter again from the start', () => {
    const cc = copyFixture('rewind-parallel')
    const full = readFileSync(cc.file, 'utf8')
    const tail = new SessionTail(cc.file, claudeCode)
    expect(tail.tree?.leaves()).toHaveLength(2)

    const { head } = split(cc.file)
    writeFileSync(cc.file, head)
    expect(tail.refresh().reread).toBe(true)
    expect(tail.tree?.leaves()).toHaveLength(1)

    // Replaced (a new inode), as an editor or a migration writes a file.
    writeFileSync(`${cc.file}.new`, full)
    renameSync(`${cc.file}.new`, cc.file)
    expect(tail.refresh().reread).toBe(true)
    expect(tail.tree?.leaves()).toHaveLength(2)
  })
})
