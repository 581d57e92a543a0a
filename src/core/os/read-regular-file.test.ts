// readRegularFile reads with the size its own fstat gave (no second fstat): the bytes must be
// the file's, whatever its size, and a file that reports size 0 (those of /proc) is read whole.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readRegularFile } from './read-regular-file'

const dir = mkdtempSync(join(tmpdir(), 'rs-read-regular-'))

function contentAt(path: string, followSymlinks = true): Buffer {
  const found = readRegularFile(path, { followSymlinks })
  if (found.kind !== 'file') throw new Error(`${path}: ${found.kind}`)
  return found.content
}

describe('readRegularFile', () => {
  it('reads a regular file of any size whole', () => {
    for (const size of [0, 1, 4095, 4096, 8192, 100_001]) {
      const path = join(dir, `f${size}`)
      const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 7) % 256))
      writeFileSync(path, bytes)
      expect(contentAt(path).equals(bytes), `${size} bytes`).toBe(true)
    }
  })

  it("refuses a file past 2 GiB with readFileSync's error, allocating nothing", () => {
    const path = join(dir, 'sparse-huge')
    // Sparse: 3 GiB long, no block written.
    execFileSync('truncate', ['-s', '3G', path])
    expect(() => readRegularFile(path)).toThrow(
      expect.objectContaining({ code: 'ERR_FS_FILE_TOO_LARGE' })
    )
  })

  it('reads a file that reports no size to its end', () => {
    const status = contentAt('/proc/self/status').toString('utf8')
    expect(status).toContain('Name:')
    expect(status.length).toBeGreaterThan(100)
    // Past the first 8 KB read: /proc/self/maps of a Node process is tens of kilobytes.
    const maps = contentAt('/proc/self/maps')
    expect(maps.length).toBeGreaterThan(8192)
    expect(maps.toString('utf8').trimEnd().split('\n').length).toBeGreaterThan(50)
  })

  it('reads nothing that is no regular file', () => {
    mkdirSync(join(dir, 'folder'))
    execFileSync('mkfifo', [join(dir, 'fifo')])
    expect(readRegularFile(join(dir, 'folder'))).toEqual({ kind: 'other', what: 'folder' })
    expect(readRegularFile(join(dir, 'fifo'))).toEqual({
      kind: 'other',
      what: 'FIFO (named pipe)'
    })
    expect(readRegularFile(join(dir, 'nothing'))).toEqual({ kind: 'missing' })
    writeFileSync(join(dir, 'target'), 'through the link')
    symlinkSync(join(dir, 'target'), join(dir, 'link'))
    expect(contentAt(join(dir, 'link')).toString()).toBe(readFileSync(join(dir, 'target'), 'utf8'))
    expect(() => readRegularFile(join(dir, 'link'), { followSymlinks: false })).toThrow(/ELOOP/)
  })
})
