// A generated session of realistic shape (prompts, assistant text and tool calls, tool results of
// a few KB, file changes, a rewind every 40 turns) for the benchmarks and the size tests. Records
// are built in our format directly (writing 100 MB through the store would fsync 100k times).
import { closeSync, openSync, writeSync } from 'node:fs'
import { SESSION_FORMAT_VERSION } from '../../src/core/session/records'

const WORDS =
  'the session tree keeps every branch rewind restores code and conversation a checkpoint per prompt file history blob store append only writer lock torn tail'.split(
    ' '
  )

function text(random: () => number, chars: number): string {
  let s = ''
  while (s.length < chars) s += `${WORDS[Math.floor(random() * WORDS.length)]} `
  return s.slice(0, chars)
}

function seeded(seed: number): () => number {
  let x = seed >>> 0
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0
    return x / 2 ** 32
  }
}

function id(n: number): string {
  const hex = n.toString(16).padStart(12, '0')
  return `01900000-0000-7000-8000-${hex}`
}

/**
 * The record writer every generated session is written through (this file's sessions and
 * bench/support/linear-branch.ts's): ids numbered in order, a second a record, each node the
 * child of the one before (`node`) unless `leaf` is moved, side records (`attach`: file changes,
 * rewinds) hung on the leaf without becoming it.
 */
export class SyntheticRecords {
  bytes = 0
  count = 0
  leaf: string | null = null
  private n = 0
  private readonly fd: number
  private readonly t0 = Date.parse('2026-01-01T00:00:00.000Z')

  constructor(file: string, cwd: string) {
    this.fd = openSync(file, 'w')
    this.emit({
      type: 'session',
      uuid: id(0),
      parentUuid: null,
      timestamp: this.stamp(),
      version: SESSION_FORMAT_VERSION,
      sessionId: id(0),
      cwd
    })
  }

  /** A node on the chain: the child of the leaf, then the leaf. Returns its uuid. */
  node(type: string, fields: Record<string, unknown>): string {
    const uuid = this.attach(type, fields)
    this.leaf = uuid
    return uuid
  }

  /** A record whose parent is the leaf, the leaf left where it is. Returns its uuid. */
  attach(type: string, fields: Record<string, unknown>): string {
    const uuid = id(++this.n)
    this.emit({ type, uuid, parentUuid: this.leaf, timestamp: this.stamp(), ...fields })
    return uuid
  }

  close(): void {
    closeSync(this.fd)
  }

  private stamp(): string {
    return new Date(this.t0 + this.n * 1000).toISOString()
  }

  private emit(record: Record<string, unknown>): void {
    const line = `${JSON.stringify(record)}\n`
    writeSync(this.fd, line)
    this.bytes += Buffer.byteLength(line)
    this.count++
  }
}

/**
 * Writes a session of about `targetBytes` to `file` (or of `limits.turns` turns, whichever comes
 * first), its header naming `limits.cwd`, a rewind every `limits.rewindEvery` turns (40), or
 * `limits.branches` rewinds spread evenly over `limits.turns`; each leaves the last three turns as
 * a branch. Returns
 * its record count.
 */
export function writeSyntheticSession(
  file: string,
  targetBytes: number,
  seed = 1,
  limits: { turns?: number; cwd?: string; rewindEvery?: number; branches?: number } = {}
): number {
  const random = seeded(seed)
  const out = new SyntheticRecords(file, limits.cwd ?? '/work/project')
  const node = (type: string, fields: Record<string, unknown>) => out.node(type, fields)
  const turnStarts: (string | null)[] = []
  try {
    for (let turn = 1; out.bytes < targetBytes && turn <= (limits.turns ?? Infinity); turn++) {
      turnStarts.push(out.leaf)
      const prompt = node('user', {
        message: { role: 'user', content: text(random, 80 + random() * 300) }
      })
      const toolId = `toolu_${turn}`
      node('assistant', {
        message: {
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          stop_reason: 'tool_use',
          content: [
            { type: 'text', text: text(random, 100 + random() * 400) },
            {
              type: 'tool_use',
              id: toolId,
              name: 'Edit',
              input: { path: `src/f${turn % 97}.ts`, old: text(random, 60), new: text(random, 80) }
            }
          ],
          usage: { input_tokens: 1200, output_tokens: 300 }
        }
      })
      node('user', {
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: toolId,
              content: text(random, 500 + random() * 2500)
            }
          ]
        }
      })
      out.attach('file_change', {
        checkpointUuid: prompt,
        path: `src/f${turn % 97}.ts`,
        before: 'a'.repeat(64),
        after: 'b'.repeat(64),
        source: 'Edit'
      })
      node('assistant', {
        message: {
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          stop_reason: 'end_turn',
          content: [{ type: 'text', text: text(random, 100 + random() * 500) }]
        }
      })
      const { branches, turns } = limits
      const rewindHere =
        branches !== undefined && turns !== undefined
          ? Math.floor((turn * branches) / turns) > Math.floor(((turn - 1) * branches) / turns)
          : turn % (limits.rewindEvery ?? 40) === 0
      if (rewindHere) {
        // Back three turns: the abandoned turns stay as a branch.
        const target = turnStarts[turnStarts.length - 3] ?? null
        out.attach('rewind', {
          leafUuid: target,
          checkpointUuid: prompt,
          mode: 'both'
        })
        out.leaf = target
      }
    }
  } finally {
    out.close()
  }
  return out.count
}
