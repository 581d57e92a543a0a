// rehydrated() goes on from the state it kept for a shorter path (the turn before) instead of
// walking the whole branch: on fuzzed branches, with forks, its answer for every path must be the
// one a walk of the whole path gives (a copy of the path: records it never saw, nothing kept).
import { describe, expect, it } from 'vitest'
import type { TreeRecord } from '../../session/tree'
import { rehydrated } from './state'
import { REWIND_REPORT_TYPE } from './texts'

let serial = 0
const uuid = () => `r${++serial}`
const time = () => new Date(Date.UTC(2026, 0, 1, 0, 0, serial)).toISOString()

/** A random record of the kinds rehydrated() reads, answering calls made earlier on `path`. */
function randomRecord(path: readonly TreeRecord[], random: () => number): TreeRecord {
  const base = { uuid: uuid(), parentUuid: path.at(-1)?.uuid ?? null, timestamp: time() }
  const callIds = path.flatMap((r) =>
    r.type === 'assistant' && typeof r.message.content !== 'string'
      ? r.message.content.flatMap((b) => (b.type === 'tool_use' && 'id' in b ? [b.id] : []))
      : []
  )
  const pick = random()
  if (pick < 0.3) {
    // Calls, an id now and then used again (the latest call of an id is the one answered).
    const content = Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
      type: 'tool_use' as const,
      id: callIds.length > 0 && random() < 0.2 ? (callIds[0] as string) : `call${++serial}`,
      name: random() < 0.5 ? 'checkpoint' : 'Read',
      input: {}
    }))
    return { type: 'assistant', ...base, message: { role: 'assistant', content } } as TreeRecord
  }
  if (pick < 0.65 && callIds.length > 0) {
    const answered = callIds.slice(-2)
    const content = answered.map((id) => ({
      type: 'tool_result' as const,
      tool_use_id: id,
      content: 'ok',
      ...(random() < 0.2 ? { is_error: true } : {})
    }))
    const toolDetails = Object.fromEntries(
      answered.map((id) => [id, random() < 0.7 ? { goal: `goal ${id}`, startedAt: time() } : 7])
    )
    return {
      type: 'user',
      ...base,
      message: { role: 'user', content },
      toolDetails
    } as TreeRecord
  }
  if (pick < 0.8) {
    return {
      type: 'custom_message',
      ...base,
      customType: REWIND_REPORT_TYPE,
      hidden: true,
      content: 'report',
      ...(random() < 0.7
        ? { details: { report: `report ${serial}`, startedAt: time(), rewoundAt: time() } }
        : {})
    } as TreeRecord
  }
  return {
    type: 'user',
    ...base,
    message: { role: 'user', content: `prompt ${serial}` }
  } as TreeRecord
}

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state / 2 ** 31
  }
}

const walkedWhole = (path: readonly TreeRecord[]) => rehydrated(structuredClone(path))

describe('rehydrated', () => {
  it('gives, turn after turn and on forks, what a walk of the whole path gives', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = generator(seed)
      const trunk: TreeRecord[] = []
      let opened = 0
      for (let step = 0; step < 120; step++) {
        trunk.push(randomRecord(trunk, random))
        // Asked at a turn's end, every few records, as the agent does.
        if (random() < 0.3) {
          const found = rehydrated(trunk)
          expect(found).toEqual(walkedWhole(trunk))
          if (found.active !== null) opened++
        }
      }
      // A branch off an earlier record: the kept states of the trunk's later records do not apply.
      const fork = trunk.slice(0, Math.floor(random() * trunk.length))
      for (let step = 0; step < 30; step++) {
        fork.push(randomRecord(fork, random))
        expect(rehydrated(fork)).toEqual(walkedWhole(fork))
      }
      expect(rehydrated(trunk)).toEqual(walkedWhole(trunk))
      // The fuzz reaches the states it is about.
      if (seed === 40) expect(opened).toBeGreaterThan(0)
    }
  })

  it('reads afresh a path that starts later, or skips records, of one it kept a state for', () => {
    const random = generator(7)
    const path: TreeRecord[] = []
    for (let i = 0; i < 60; i++) path.push(randomRecord(path, random))
    rehydrated(path)
    // The same last records, without the first: another path (a compaction's view, say).
    for (let cut = 1; cut < 60; cut += 7) {
      expect(rehydrated(path.slice(cut))).toEqual(walkedWhole(path.slice(cut)))
    }
    // The same first and last records, some between left out.
    for (let every = 2; every < 6; every++) {
      const thinned = path.filter((_, i) => i === 0 || i === 59 || i % every !== 1)
      expect(rehydrated(thinned)).toEqual(walkedWhole(thinned))
    }
  })
})
