// A restore writes a file over itself in place only when nothing but the moment of the write
// can go wrong (overwriteInPlace), and a rollback tells its own cut-short write from anyone
// else's change (isPartialOverwrite).
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import {
  chmodSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  inspectPath,
  isPartialOverwrite,
  overwriteAsBackedUp,
  overwriteInPlace,
  overwritesInPlace,
  readFileAt
} from '../../src/core/rewind/workspace-files'

function workspace(): string {
  return mkdtempSync(join(tmpdir(), 'rs-in-place-'))
}

function stampOf(root: string, rel: string): string {
  const { stamp } = inspectPath(root, rel)
  if (stamp === null) throw new Error(`no file at ${rel}`)
  return stamp
}

/** Every state overwriteInPlace's steps pass through writing `to` over `from`. */
function statesOnTheWay(from: Buffer, to: Buffer): Buffer[] {
  const states: Buffer[] = []
  for (let k = 0; k <= to.length; k++) {
    const file = Buffer.from(from.length > k ? from : Buffer.alloc(k))
    to.copy(file, 0, 0, k)
    states.push(file.subarray(0, Math.max(k, from.length)))
  }
  return states
}

describe('isPartialOverwrite', () => {
  const pairs: [string, string][] = [
    ['rewritten line\n', 'original line\n'],
    ['short', 'a much longer new content\n'],
    ['', 'new'],
    ['old', ''],
    ['same length', 'SAME LENGTH'],
    ['aaaaaaaa', 'aaaabaaa']
  ]
  it('holds for every state a write cut short leaves, and for none after another change', () => {
    for (const [a, b] of pairs) {
      const from = Buffer.from(a)
      const to = Buffer.from(b)
      for (const state of statesOnTheWay(from, to)) {
        expect(isPartialOverwrite(state, from, to), `${a} → ${b}: ${state.toString()}`).toBe(true)
      }
    }
    const from = Buffer.from('rewritten line\n')
    const to = Buffer.from('original line\n')
    // A hand edit of the part not yet written, an appended line, the file emptied, a third text.
    expect(isPartialOverwrite(Buffer.from('origitten lime\n'), from, to)).toBe(false)
    expect(isPartialOverwrite(Buffer.from('rewritten line\nmore\n'), from, to)).toBe(false)
    expect(isPartialOverwrite(Buffer.from(''), from, to)).toBe(false)
    expect(isPartialOverwrite(Buffer.from('something else\n'), from, to)).toBe(false)
  })
})

describe('overwriteInPlace', () => {
  it('writes the new content over the same file, cutting a longer old end', () => {
    const root = workspace()
    const abs = join(root, 'a.txt')
    writeFileSync(abs, 'a longer old content\n')
    const inode = statSync(abs).ino
    expect(overwriteInPlace(abs, Buffer.from('new\n'), stampOf(root, 'a.txt'))).toBe(true)
    expect(readFileSync(abs, 'utf8')).toBe('new\n')
    expect(statSync(abs).ino).toBe(inode)
  })

  it('writes nothing and says so where the file cannot take it in place', () => {
    const root = workspace()
    const content = Buffer.from('restored\n')
    const refused = (rel: string, stamp: string, mode?: number) => {
      const before = readFileSync(join(root, rel), 'utf8')
      expect(overwriteInPlace(join(root, rel), content, stamp, mode), rel).toBe(false)
      expect(readFileSync(join(root, rel), 'utf8'), rel).toBe(before)
    }
    // Changed since it was checked (its stamp then).
    writeFileSync(join(root, 'changed.txt'), 'checked\n')
    const checked = stampOf(root, 'changed.txt')
    writeFileSync(join(root, 'changed.txt'), 'changed since\n')
    refused('changed.txt', checked)
    // Another name for the same file, outside the workspace: it would change too.
    writeFileSync(join(root, 'linked.txt'), 'linked\n')
    linkSync(join(root, 'linked.txt'), join(workspace(), 'elsewhere.txt'))
    refused('linked.txt', stampOf(root, 'linked.txt'))
    // New bits to give it: they go with the content in one rename.
    writeFileSync(join(root, 'bits.txt'), 'bits\n')
    chmodSync(join(root, 'bits.txt'), 0o644)
    refused('bits.txt', stampOf(root, 'bits.txt'), 0o600)
    // More than its blocks hold: the write could run out of space part way.
    writeFileSync(join(root, 'small.txt'), 'x')
    const blocks = statSync(join(root, 'small.txt')).blocks * 512
    expect(
      overwriteInPlace(
        join(root, 'small.txt'),
        Buffer.alloc(blocks + 1, 'y'),
        stampOf(root, 'small.txt')
      )
    ).toBe(false)
    expect(readFileSync(join(root, 'small.txt'), 'utf8')).toBe('x')
  })

  it('leaves a running program to be replaced (its file cannot be written while it runs)', async () => {
    const root = workspace()
    const program = join(root, 'sleeper')
    copyFileSync('/bin/sleep', program)
    const running = spawn(program, ['30'], { stdio: 'ignore' })
    try {
      await once(running, 'spawn')
      const before = readFileSync(program)
      expect(overwriteInPlace(program, Buffer.from('#!/bin/sh\n'), stampOf(root, 'sleeper'))).toBe(
        false
      )
      expect(readFileSync(program).equals(before)).toBe(true)
    } finally {
      running.kill()
    }
  })

  it('never writes through a link or waits on a FIFO swapped in after the check', () => {
    const root = workspace()
    const outside = join(workspace(), 'outside.txt')
    writeFileSync(outside, 'not the session’s\n')
    writeFileSync(join(root, 'a.txt'), 'checked\n')
    const stamp = stampOf(root, 'a.txt')
    execFileSync('rm', [join(root, 'a.txt')])
    symlinkSync(outside, join(root, 'a.txt'))
    expect(overwriteInPlace(join(root, 'a.txt'), Buffer.from('x'), stamp)).toBe(false)
    expect(readFileSync(outside, 'utf8')).toBe('not the session’s\n')
    execFileSync('rm', [join(root, 'a.txt')])
    execFileSync('mkfifo', [join(root, 'a.txt')])
    expect(overwriteInPlace(join(root, 'a.txt'), Buffer.from('x'), stamp)).toBe(false)
  })

  it('is used only on file systems that overwrite blocks where they are', () => {
    // This machine's temp folder: ext4 or tmpfs on Linux CI (the case the restore bench
    // measures); elsewhere it may be either.
    const type = execFileSync('stat', ['-f', '-c', '%T', tmpdir()], { encoding: 'utf8' }).trim()
    expect(overwritesInPlace(tmpdir())).toBe(['ext2/ext3', 'tmpfs'].includes(type))
  })
})

describe('overwriteAsBackedUp', () => {
  /**
   * What a restore's backup remembers of the file at `rel`: read settled (changed well before
   * the read), or, with `settleMs`, as readFileAt judges it.
   */
  const backedUp = (root: string, rel: string, settleMs?: number) => {
    const file = readFileAt(join(root, rel), settleMs ?? 0)
    if (file === null) throw new Error(`no file at ${rel}`)
    return { stamp: file.stamp, settled: settleMs === undefined || file.settled, mode: file.mode }
  }

  it('writes over the very file the backup read, without walking its path again', () => {
    const root = workspace()
    mkdirSync(join(root, 'src'))
    writeFileSync(join(root, 'src', 'a.txt'), 'backed up\n')
    const inode = statSync(join(root, 'src', 'a.txt')).ino
    const read = backedUp(root, 'src/a.txt')
    expect(overwriteAsBackedUp(root, 'src/a.txt', Buffer.from('restored\n'), read)).toBe(true)
    expect(readFileSync(join(root, 'src', 'a.txt'), 'utf8')).toBe('restored\n')
    expect(statSync(join(root, 'src', 'a.txt')).ino).toBe(inode)
  })

  it('writes nothing through a folder swapped for a symlink since the backup', () => {
    const root = workspace()
    mkdirSync(join(root, 'src'))
    writeFileSync(join(root, 'src', 'a.txt'), 'same\n')
    const read = backedUp(root, 'src/a.txt')
    // Outside: a folder with a file of the same name and content; the workspace's folder moved
    // away and a link to the outside one put in its place.
    const outside = workspace()
    writeFileSync(join(outside, 'a.txt'), 'same\n')
    renameSync(join(root, 'src'), join(root, 'moved'))
    symlinkSync(outside, join(root, 'src'))
    expect(overwriteAsBackedUp(root, 'src/a.txt', Buffer.from('restored\n'), read)).toBe(false)
    expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('same\n')
    expect(readFileSync(join(root, 'moved', 'a.txt'), 'utf8')).toBe('same\n')
  })

  it('writes nothing over a file replaced since, or one read before it settled', () => {
    const root = workspace()
    writeFileSync(join(root, 'a.txt'), 'same\n')
    const read = backedUp(root, 'a.txt')
    // Replaced by another file of the same content: another inode, another stamp.
    writeFileSync(join(root, 'new.txt'), 'same\n')
    renameSync(join(root, 'new.txt'), join(root, 'a.txt'))
    expect(overwriteAsBackedUp(root, 'a.txt', Buffer.from('restored\n'), read)).toBe(false)
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('same\n')
    // Read as changed just before: its stamp proves nothing (unchangedSince).
    const racy = backedUp(root, 'a.txt', 60_000)
    expect(racy.settled).toBe(false)
    expect(overwriteAsBackedUp(root, 'a.txt', Buffer.from('restored\n'), racy)).toBe(false)
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('same\n')
  })

  it('refuses a path into a .git folder as every restore write does', () => {
    const root = workspace()
    mkdirSync(join(root, '.git'))
    writeFileSync(join(root, '.git', 'config'), 'x')
    const read = backedUp(root, '.git/config')
    expect(() => overwriteAsBackedUp(root, '.git/config', Buffer.from('y'), read)).toThrow(
      /\.git folder/
    )
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe('x')
  })
})
