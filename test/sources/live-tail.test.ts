// Live tail: a session file another program is still writing is followed. Only appended bytes are
// read, a half-written last line waits for its newline, a file replaced or truncated is read again
// from the start; the studio pushes the new graph when a line lands, and never writes the file.
// (How soon is measured by bench/live-tail.ts, not asserted here.)
import {
  appendFileSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { LoadProblem, ProblemLog } from '../../src/core/session/problems'
import { SessionStore } from '../../src/core/session/store'
import { FileTail } from '../../src/core/sources/live-tail'
import { launchScriptedStudio } from '../support/scripted-studio'
import type { GraphUpdate } from '../../src/shared/graph-encoding'
import type { SessionGraph } from '../../src/shared/views'
import { graphFollower } from '../support/graph-updates'
import { startSessionWriter } from '../support/session-writer'
import { makeWorkspace } from '../rewind/fixture'

const cleanup: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo()
})

/** A listener whose calls are awaited one by one. */
function recorder() {
  const calls: (
    | { kind: 'appended'; values: unknown[]; lines: number[]; problems: LoadProblem[] }
    | { kind: 'reset' }
  )[] = []
  let wake: (() => void) | null = null
  const push = (call: (typeof calls)[number]) => {
    calls.push(call)
    wake?.()
  }
  return {
    listener: {
      appended: (values: unknown[], lines: number[], problems: ProblemLog) =>
        push({ kind: 'appended', values, lines, problems: problems.listed }),
      reset: () => push({ kind: 'reset' })
    },
    /** Resolves with the next call (in order). */
    async next() {
      while (calls.length === 0) await new Promise<void>((resolve) => (wake = resolve))
      return calls.shift()
    },
    pendingCalls: () => calls.length
  }
}

function tailOf(file: string, listener: ReturnType<typeof recorder>['listener']) {
  const { size, ino } = statSync(file)
  const tail = new FileTail(file, { offset: size, nextLine: 2, ino }, listener)
  cleanup.push(() => tail.close())
  return tail
}

describe('a file followed while another program writes it', () => {
  it('hands on each appended line once complete; a half-written one waits for its newline', async () => {
    const { base } = makeWorkspace()
    const file = join(base, 'live.jsonl')
    writeFileSync(file, '{"n":1}\n')
    const r = recorder()
    tailOf(file, r.listener)
    appendFileSync(file, '{"n":2}\n{"n":')
    expect(await r.next()).toEqual({
      kind: 'appended',
      values: [{ n: 2 }],
      lines: [2],
      problems: []
    })
    appendFileSync(file, '3}\n')
    expect(await r.next()).toEqual({
      kind: 'appended',
      values: [{ n: 3 }],
      lines: [3],
      problems: []
    })
  })

  it('reads a truncated or replaced file again from the start', async () => {
    const { base } = makeWorkspace()
    const file = join(base, 'live.jsonl')
    writeFileSync(file, '{"n":1}\n{"n":2}\n')
    const r = recorder()
    tailOf(file, r.listener)

    truncateSync(file, 0)
    appendFileSync(file, '{"again":1}\n')
    expect(await r.next()).toEqual({ kind: 'reset' })
    expect(await r.next()).toMatchObject({ kind: 'appended', values: [{ again: 1 }], lines: [1] })

    // Replaced by a new file (another inode) as long as the old one: read from its start.
    writeFileSync(`${file}.new`, '{"new":1}\n{"new":2}\n')
    renameSync(`${file}.new`, file)
    expect(await r.next()).toEqual({ kind: 'reset' })
    expect(await r.next()).toMatchObject({
      kind: 'appended',
      values: [{ new: 1 }, { new: 2 }],
      lines: [1, 2]
    })
  })
})

describe('the studio on a session another process is writing', () => {
  it('opens it read-only, pushes the graph with each appended line, and never writes the file', async () => {
    const where = makeWorkspace({ 'a.txt': 'a' })
    const created = SessionStore.create({ home: where.home, cwd: where.cwd })
    created.appendMessage({ role: 'user', content: 'first prompt' })
    created.close()
    const writer = await startSessionWriter(created.file)
    cleanup.push(() => writer.close())

    const graphs: SessionGraph[] = []
    const follow = graphFollower()
    let wake: (() => void) | null = null
    const studio = await launchScriptedStudio({
      home: where.home,
      cwd: where.cwd,
      permissionMode: 'default',
      session: { kind: 'id', id: created.sessionId },
      emit: (event, payload) => {
        if (event !== 'session:graphUpdate') return
        graphs.push(follow(payload as GraphUpdate))
        wake?.()
      }
    })
    cleanup.push(() => studio.close())
    expect(studio.info().readOnlyReason).toMatch(/is open in process \d+/)
    const graphWith = async (uuid: string) => {
      for (;;) {
        const found = graphs.find((g) => g.nodes.some((n) => n.id === uuid))
        if (found !== undefined) return found
        await new Promise<void>((resolve) => (wake = resolve))
      }
    }

    const second = await writer.append('second prompt, written by the other process')
    expect((await graphWith(second)).nodes.map((n) => n.title)).toEqual([
      'first prompt',
      'second prompt, written by the other process'
    ])
    const third = await writer.append('third prompt')
    expect((await graphWith(third)).nodes).toHaveLength(3)

    await writer.close()
    const written = readFileSync(created.file, 'utf8')
    await studio.close()
    // Every line is one the writer appended; the studio added nothing.
    expect(readFileSync(created.file, 'utf8')).toBe(written)
    expect(written.trimEnd().split('\n')).toHaveLength(4)
  })
})
