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
  const fd = openSync(file, 'w')
  let bytes = 0
  let count = 0
  let n = 0
  let leaf: string | null = null
  const turnStarts: (string | null)[] = []
  const t0 = Date.parse('2026-01-01T00:00:00.000Z')
  const emit = (record: Record<string, unknown>) => {
    const line = `${JSON.stringify(record)}\n`
    writeSync(fd, line)
    bytes += Buffer.byteLength(line)
    count++
  }
  const stamp = () => new Date(t0 + n * 1000).toISOString()
  const node = (type: string, fields: Record<string, unknown>) => {
    const uuid = id(++n)
    emit({ type, uuid, parentUuid: leaf, timestamp: stamp(), ...fields })
    leaf = uuid
    return uuid
  }
  emit({
    type: 'session',
    uuid: id(0),
    parentUuid: null,
    timestamp: stamp(),
    version: SESSION_FORMAT_VERSION,
    sessionId: id(0),
    cwd: limits.cwd ?? '/work/project'
  })
  try {
    for (let turn = 1; bytes < targetBytes && turn <= (limits.turns ?? Infinity); turn++) {
      turnStarts.push(leaf)
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
      emit({
        type: 'file_change',
        uuid: id(++n),
        parentUuid: leaf,
        timestamp: stamp(),
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
        emit({
          type: 'rewind',
          uuid: id(++n),
          parentUuid: leaf,
          timestamp: stamp(),
          leafUuid: target,
          checkpointUuid: prompt,
          mode: 'both'
        })
        leaf = target
      }
    }
  } finally {
    closeSync(fd)
  }
  return count
}
