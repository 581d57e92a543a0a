// Live tail: a session file another program is still writing is followed. Only appended bytes are
// read, a half-written last line waits for its newline, a file replaced or truncated is read again
// from the start; the studio pushes the new graph when a line lands, and never writes the file.
// (How soon is measured by bench/live-tail.ts, not asserted here.)
import { spawnSync } from 'node:child_process'
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
import { MAX_RECORDS } from '../session/jsonl'
import type { LoadProblem, ProblemLog } from '../session/problems'
import { FileTail, type TailOptions } from './live-tail'
import type { GraphUpdate } from '../../shared/graph-encoding'
import type { SessionGraph } from '../../shared/views'
import { graphFollower } from '../../../test/support/graph-updates'
import { studioBesideWriter } from '../../../test/support/session-writer'
import { makeWorkspace } from '../../../test/rewind/fixture'

const cleanup: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo()
})

/** A listener whose calls are awaited one by one. */
function recorder() {
  const calls: (
    | { kind: 'appended'; values: unknown[]; lines: number[]; problems: LoadProblem[] }
    | { kind: 'reset' }
    | { kind: 'stopped'; message: string }
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
      reset: () => push({ kind: 'reset' }),
      stopped: (error: Error) => push({ kind: 'stopped', message: error.message })
    },
    /** Resolves with the next call (in order). */
    async next() {
      while (calls.length === 0) await new Promise<void>((resolve) => (wake = resolve))
      return calls.shift()
    },
    pendingCalls: () => calls.length
  }
}

function tailOf(
  file: string,
  listener: ReturnType<typeof recorder>['listener'],
  options: TailOptions = {}
) {
  const { size, ino } = statSync(file)
  const tail = new FileTail(file, { offset: size, nextLine: 2, ino }, listener, options)
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

  it('stops following once the file holds more records than are read, keeping none past the bound', async () => {
    const { base } = makeWorkspace()
    const file = join(base, 'live.jsonl')
    writeFileSync(file, '{"n":1}\n{"n":2}\n')
    const r = recorder()
    const tail = tailOf(file, r.listener, { held: 2, maxRecords: 5 })
    appendFileSync(file, '{"n":3}\n{"n":4}\n')
    expect(await r.next()).toMatchObject({ kind: 'appended', values: [{ n: 3 }, { n: 4 }] })
    // One more fits (5 held); the two after it do not: none of the three is handed on.
    appendFileSync(file, '{"n":5}\n{"n":6}\n{"n":7}\n')
    expect(await r.next()).toEqual({
      kind: 'stopped',
      message: expect.stringMatching(/holds more than 5 records/)
    })
    // Stopped for good: later appends are not read.
    appendFileSync(file, '{"n":8}\n')
    tail.check()
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(r.pendingCalls()).toBe(0)
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
    const graphs: SessionGraph[] = []
    const follow = graphFollower()
    let wake: (() => void) | null = null
    const { file, writer, studio } = await studioBesideWriter((event, payload) => {
      if (event !== 'session:graphUpdate') return
      graphs.push(follow(payload as GraphUpdate))
      wake?.()
    })
    cleanup.push(() => writer.close())
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
    const written = readFileSync(file, 'utf8')
    await studio.close()
    // Every line is one the writer appended; the studio added nothing.
    expect(readFileSync(file, 'utf8')).toBe(written)
    expect(written.trimEnd().split('\n')).toHaveLength(4)
  })

  it('stops following it, with a notice, once it grows past the records read', async () => {
    const notices: string[] = []
    const { file, writer, studio } = await studioBesideWriter((event, payload) => {
      const p = payload as { type?: string; message?: string }
      if (event === 'agent:event' && p.type === 'notice') notices.push(p.message ?? '')
    })
    cleanup.push(() => writer.close())
    cleanup.push(() => studio.close())
    // Another program gone wrong appends five million tiny lines at once.
    const child = spawnSync(process.execPath, [
      '-e',
      'require("fs").appendFileSync(process.argv[1], "{}\\n".repeat(Number(process.argv[2])))',
      file,
      String(MAX_RECORDS)
    ])
    expect(child.status).toBe(0)
    await expect
      .poll(() => notices.join('\n'), { timeout: 60_000 })
      .toMatch(
        /Stopped following .*holds more than 5,000,000 records.*What was read before is shown/
      )
    expect((await studio.graph()).nodes.map((n) => n.title)).toEqual(['first prompt'])
    // A page opened later learns it from app:info.
    expect(studio.info().notices.join('\n')).toMatch(/Stopped following /)
  })
})
