// The batch merge (merge-tree.ts, through MergeRunner.mergeAll) against git merge-file run on each
// triple alone (MergeRunner.merge, what every plan did before): the same bytes and the same
// conflicts on the bench's triples, the merge tests' and a few hundred made from random edits
// (lines without a letter between conflicts included, where the two group hunks differently).
// And git is pointed at the private store only: a GIT_DIR in the environment is neither written
// to nor read (its merge.conflictStyle does not change the markers).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type FileMerge, MergeRunner } from './merge-file'
import type { TextTriple } from './merge-tree'

const labels = { ours: 'this branch', base: 'where the branches part', theirs: 'brought in' }
const runners: MergeRunner[] = []
afterEach(() => {
  for (const r of runners.splice(0)) r.close()
})

function runner(): { runner: MergeRunner; scratch: string } {
  const scratch = join(mkdtempSync(join(tmpdir(), 'rs-merge-tree-')), 'merging')
  const r = new MergeRunner(scratch)
  runners.push(r)
  return { runner: r, scratch }
}

const text = (lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''))
const triple = (base: string[] | null, ours: string[], theirs: string[]): TextTriple => ({
  base: base === null ? null : text(base),
  ours: text(ours),
  theirs: text(theirs)
})

/** A small PRNG, so the random triples are the same on every run. */
function random(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648
    return s / 2147483648
  }
}

const WORDS = ['alpha', 'beta', 'gamma', '}', '', '{', 'return x', '  }', '// note', 'delta']

function edited(base: string[], next: () => number, edits: number): string[] {
  const out = [...base]
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * (out.length + 1))
    const word = `${WORDS[Math.floor(next() * WORDS.length)]}${next() < 0.5 ? ` ${e}` : ''}`
    const kind = next()
    if (kind < 0.33) out.splice(at, 0, word)
    else if (kind < 0.66) out.splice(at, 1)
    else out.splice(at, 1, word)
  }
  return out
}

function triples(): TextTriple[] {
  const all: TextTriple[] = []
  // The bench's: 80 lines, theirs changes line 5, ours line 70.
  for (let i = 0; i < 20; i++) {
    const base = Array.from({ length: 80 }, (_, n) => `line ${n} of file ${i}: ${'x'.repeat(40)}`)
    const at = (n: number, prefix: string) => base.map((l, k) => (k === n ? `${prefix} ${l}` : l))
    all.push(triple(base, at(70, 'OURS'), at(5, 'THEIRS')))
  }
  // The merge tests'.
  const five = ['one', 'two', 'three', 'four', 'five']
  all.push(triple(five, ['one', 'two', 'three', 'four', 'FIVE'], ['ONE', ...five.slice(1)]))
  all.push(triple(['a', 'b', 'c'], ['a', 'OURS', 'c'], ['a', 'THEIRS', 'c']))
  all.push(triple(['1', '2'], ['1', 'deux'], ['1', 'two']))
  all.push(triple(null, ['added', 'here'], ['added', 'there']))
  all.push(triple(null, ['same start', 'x'], ['same start', 'y']))
  // Conflicts parted by lines without a letter: merge-file makes them one hunk.
  const braces = ['f(', 'a', '}', '}', '}', '}', '}', 'b', ')']
  all.push(
    triple(
      braces,
      braces.map((l) => (l === 'a' || l === 'b' ? `${l}1` : l)),
      braces.map((l) => (l === 'a' || l === 'b' ? `${l}2` : l))
    )
  )
  // Marker-like lines in a clean merge, no final newline, CRLF, empty sides.
  all.push(
    triple(
      ['<<<<<<< x', 'k', '>>>>>>> y'],
      ['<<<<<<< x', 'k', '>>>>>>> y', 'z'],
      ['w', '<<<<<<< x', 'k', '>>>>>>> y']
    )
  )
  all.push({ base: Buffer.from('a\nb'), ours: Buffer.from('A\nb'), theirs: Buffer.from('a\nB') })
  all.push({
    base: Buffer.from('a\r\nb\r\nc\r\n'),
    ours: Buffer.from('A\r\nb\r\nc\r\n'),
    theirs: Buffer.from('a\r\nb\r\nC\r\n')
  })
  all.push({ base: Buffer.from('x\n'), ours: Buffer.alloc(0), theirs: Buffer.from('x\ny\n') })
  // Random edits on both sides.
  const next = random(31)
  for (let i = 0; i < 300; i++) {
    const base = Array.from(
      { length: 5 + Math.floor(next() * 30) },
      () => WORDS[Math.floor(next() * WORDS.length)] ?? ''
    )
    all.push(
      triple(
        base,
        edited(base, next, 1 + Math.floor(next() * 4)),
        edited(base, next, 1 + Math.floor(next() * 4))
      )
    )
  }
  return all
}

describe('merging many files at once', () => {
  it('gives each file the bytes and conflicts git merge-file gives it alone', async () => {
    const { runner: r } = runner()
    const all = triples()
    const alone: FileMerge[] = []
    for (const t of all) alone.push(await r.merge(t.base, t.ours, t.theirs, null, labels))
    const batch = await r.mergeAll(all, labels)
    expect(batch.length).toBe(all.length)
    for (const [i, merged] of batch.entries()) {
      expect({ i, ...merged, content: merged.content.toString('latin1') }).toEqual({
        i,
        ...alone[i],
        content: alone[i]?.content.toString('latin1')
      })
    }
    // Both kinds were checked, not one.
    expect(alone.filter((m) => m.conflicts === 0).length).toBeGreaterThan(50)
    expect(alone.filter((m) => m.conflicts > 0).length).toBeGreaterThan(50)
  }, 120_000)

  it('leaves nothing behind: the private store is in the runner’s folder, removed by close', async () => {
    const { runner: r, scratch } = runner()
    await r.mergeAll(triples().slice(0, 5), labels)
    expect(readdirSync(scratch).length).toBe(1)
    r.close()
    expect(readdirSync(scratch)).toEqual([])
  })

  it('neither writes to nor reads the repository a GIT_DIR in the environment names', async () => {
    const user = mkdtempSync(join(tmpdir(), 'rs-user-repo-'))
    execFileSync('git', ['init', '-q', user])
    const gitDir = join(user, '.git')
    writeFileSync(join(gitDir, 'config'), '[merge]\n\tconflictStyle = diff3\n', { flag: 'a' })
    const objects = () => readdirSync(join(gitDir, 'objects')).sort()
    const before = objects()
    const saved = process.env.GIT_DIR
    process.env.GIT_DIR = gitDir
    try {
      const { runner: r } = runner()
      const conflict = triple(['a', 'b', 'c'], ['a', 'OURS', 'c'], ['a', 'THEIRS', 'c'])
      const [merged] = await r.mergeAll(
        [conflict, triple(['1', '2', '3'], ['one', '2', '3'], ['1', '2', 'three'])],
        labels
      )
      expect(merged?.conflicts).toBe(1)
      // The user's diff3 style would add the base's lines under "|||||||".
      expect(merged?.content.toString()).not.toContain('|||||||')
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR
      else process.env.GIT_DIR = saved
    }
    expect(objects()).toEqual(before)
  })
})
