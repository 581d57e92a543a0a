// A Claude Code session another process is still writing, viewed in the studio
// (studio/viewed-session.ts over sources/live-tail.ts): lines a child process appends are mapped
// into the same tree as they land, a half-written last line waits for its newline, and a file
// truncated or replaced is read again from the start.
import { spawnSync } from 'node:child_process'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { claudeCode } from '../../src/core/session/foreign/claude-code'
import { MAX_RECORDS } from '../../src/core/session/jsonl'
import { buildSessionGraph } from '../../src/core/views/session-graph'
import { ViewedSession } from '../../src/core/studio/viewed-session'
import { appendFromChild } from '../support/append-from-child'
import { copyFixture } from './cc-fixtures'

/** The transcript cut before the branch made after the rewind, and the lines that make it. */
function split(file: string): { head: string; rest: string[] } {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
  const cut = lines.findIndex((l) => l.includes('"instead write a readme"'))
  return { head: `${lines.slice(0, cut).join('\n')}\n`, rest: lines.slice(cut) }
}

const viewed: ViewedSession[] = []
afterEach(() => {
  for (const v of viewed.splice(0)) v.close()
})

function view(
  file: string,
  home: string,
  claudeHome: string,
  writerQuietMs?: number,
  maxRecords?: number
) {
  const session = new ViewedSession(
    file,
    claudeCode,
    { home, claudeHome },
    writerQuietMs,
    maxRecords === undefined ? {} : { maxRecords }
  )
  viewed.push(session)
  let changes = 0
  const stopped: string[] = []
  session.follow(
    () => changes++,
    (notice) => stopped.push(notice)
  )
  return { session, changes: () => changes, stopped }
}

const prompts = (session: ViewedSession) => session.tree.checkpoints().map((c) => c.prompt)

describe('a Claude Code session file another program is writing', () => {
  it('maps appended lines into the tree; a half-written line waits for its newline', async () => {
    const cc = copyFixture('rewind-parallel')
    const { head, rest } = split(cc.file)
    writeFileSync(cc.file, head)
    const { session, changes } = view(cc.file, cc.home, cc.claudeHome)
    expect(prompts(session)).toEqual(['create the config', 'make two notes', 'change the mode'])

    const prompt = rest[0] ?? ''
    appendFromChild(cc.file, prompt.slice(0, 40))
    // Give the watch and the poll time to look: nothing complete was written, nothing changes.
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(changes()).toBe(0)
    expect(session.tree.leaves()).toHaveLength(1)

    appendFromChild(cc.file, `${prompt.slice(40)}\n${rest.slice(1).join('\n')}\n`)
    await expect.poll(() => session.tree.leaves().length, { timeout: 10_000 }).toBe(2)
    expect(prompts(session)).toEqual(['create the config', 'instead write a readme'])
  })

  it('reads a file truncated or replaced again from the start', async () => {
    const cc = copyFixture('rewind-parallel')
    const full = readFileSync(cc.file, 'utf8')
    const { session } = view(cc.file, cc.home, cc.claudeHome)
    expect(session.tree.leaves()).toHaveLength(2)

    writeFileSync(cc.file, split(cc.file).head)
    await expect.poll(() => session.tree.leaves().length, { timeout: 10_000 }).toBe(1)

    // Replaced (a new inode), as an editor or a migration writes a file.
    writeFileSync(`${cc.file}.new`, full)
    renameSync(`${cc.file}.new`, cc.file)
    await expect.poll(() => session.tree.leaves().length, { timeout: 10_000 }).toBe(2)
  })

  it('takes the writer as at work while it writes, and not once it has been quiet a while', async () => {
    const cc = copyFixture('rewind-parallel')
    const { head, rest } = split(cc.file)
    writeFileSync(cc.file, head)
    const quietMs = 1500
    const promptId = (JSON.parse(rest[0] ?? '{}') as { uuid?: string }).uuid
    const { session, changes } = view(cc.file, cc.home, cc.claudeHome, quietMs)
    const leafOutcome = () => {
      const graph = buildSessionGraph(session.tree, session.sessionId, undefined, {
        filesAt: { nodeId: null, changedSince: false },
        undo: null,
        redo: null,
        answering: session.writerAtWork()
      })
      return graph.nodes.find((node) => node.id === promptId)?.outcome
    }
    expect(session.writerAtWork()).toBe(false)

    // A prompt lands and nothing answers it: the other program is at work on it.
    appendFromChild(cc.file, `${rest[0]}\n`)
    await expect.poll(changes, { timeout: 10_000 }).toBe(1)
    expect(session.writerAtWork()).toBe(true)
    expect(leafOutcome()).toBe('running')

    // The writer died mid-turn: once it has been quiet that long, the view is told, and the turn
    // shows as the file opened afresh shows it.
    await expect.poll(changes, { timeout: quietMs + 5_000 }).toBe(2)
    expect(session.writerAtWork()).toBe(false)
    expect(leafOutcome()).toBe('failed')

    // It writes again: at work again.
    appendFromChild(cc.file, `${rest[1]}\n`)
    await expect.poll(changes, { timeout: 10_000 }).toBe(3)
    expect(session.writerAtWork()).toBe(true)
  })

  it('stops following a file that grows past the records read, says so, and keeps what it read', async () => {
    const cc = copyFixture('rewind-parallel')
    const { head, rest } = split(cc.file)
    writeFileSync(cc.file, head)
    const { session, changes, stopped } = view(cc.file, cc.home, cc.claudeHome)
    const before = session.tree.records.length
    // A writer gone wrong: five million and one tiny lines at once (15 MB), past MAX_RECORDS
    // with what the file held. Read whole, they would hold gigabytes of the app's heap.
    const child = spawnSync(
      process.execPath,
      [
        '-e',
        'require("fs").appendFileSync(process.argv[1], "{}\\n".repeat(Number(process.argv[2])))',
        cc.file,
        String(MAX_RECORDS + 1)
      ],
      { encoding: 'utf8' }
    )
    expect(child.status).toBe(0)
    await expect
      .poll(() => session.problemsNotice().join('\n'), { timeout: 60_000 })
      .toMatch(/Stopped following .*: it holds more than 5,000,000 records/)
    expect(changes()).toBeGreaterThan(0)
    // Told as it happens too (the studio sends it to the page as a notice).
    expect(stopped).toEqual([
      expect.stringMatching(/^Stopped following .*What was read before is shown\.$/)
    ])
    expect(session.tree.records.length).toBe(before)
    expect(prompts(session)).toEqual(['create the config', 'make two notes', 'change the mode'])
    // The writer goes on: nothing more is read.
    appendFromChild(cc.file, `${rest.join('\n')}\n`)
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(session.tree.records.length).toBe(before)
  })

  it('counts what it read when it opened the file against the bound', async () => {
    const cc = copyFixture('rewind-parallel')
    const { head, rest } = split(cc.file)
    writeFileSync(cc.file, head)
    const lines = head.trimEnd().split('\n').length
    // Room for the branch's lines and no more.
    const { session } = view(cc.file, cc.home, cc.claudeHome, undefined, lines + rest.length)
    appendFromChild(cc.file, `${rest.join('\n')}\n`)
    await expect.poll(() => session.tree.leaves().length, { timeout: 10_000 }).toBe(2)
    expect(session.problemsNotice().join('\n')).not.toMatch(/Stopped following/)
    appendFromChild(cc.file, '{}\n')
    await expect
      .poll(() => session.problemsNotice().join('\n'), { timeout: 10_000 })
      .toMatch(/Stopped following/)
    expect(session.tree.leaves()).toHaveLength(2)
  })
})
