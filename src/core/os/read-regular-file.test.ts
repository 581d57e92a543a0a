// readRegularFile reads with the size its own fstat gave (no second fstat): the bytes must be
// the file's, whatever its size, and a file that reports size 0 (those of /proc) is read whole.
// openRegularFile, which every reader of a session file opens through, never blocks on what is
// no regular file, even one swapped in while it opens.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  NotRegularFileError,
  openRegularFile,
  readRegularFile,
  readRegularFileAt
} from './read-regular-file'

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

describe('openRegularFile', () => {
  it('refuses a FIFO at once, to read or to append, with a writer or a reader or none', () => {
    const fifo = join(dir, 'open-fifo')
    execFileSync('mkfifo', [fifo])
    const refusal = `${fifo} is a FIFO (named pipe), not a regular file: it is not read`
    expect(() => openRegularFile(fifo)).toThrow(refusal)
    expect(() => openRegularFile(fifo, { append: true })).toThrow(refusal)
    // Another process holding the other end: the open still returns, and is still refused.
    const holder = spawn('sh', ['-c', `exec 3<>"${fifo}"; sleep 30`], { stdio: 'ignore' })
    try {
      expect(() => openRegularFile(fifo)).toThrow(NotRegularFileError)
      expect(() => openRegularFile(fifo, { append: true })).toThrow(NotRegularFileError)
    } finally {
      holder.kill('SIGKILL')
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true)
  })

  it('refuses a Unix socket and a folder, naming them; ENOENT stays ENOENT', async () => {
    const path = join(dir, 'sock')
    const server = createServer().listen(path)
    await once(server, 'listening')
    try {
      expect(() => openRegularFile(path)).toThrow(`${path} is a socket, not a regular file`)
    } finally {
      server.close()
    }
    expect(() => openRegularFile(dir)).toThrow(`${dir} is a folder, not a regular file`)
    expect(() => openRegularFile(join(dir, 'none'))).toThrow(/ENOENT/)
  })

  it('reads what it opened, never what the path held before: a FIFO swapped in and out', () => {
    // A real process puts a FIFO and a file at one path in turn as fast as it can while another
    // opens it 20,000 times: a look at the path before the open (lstat, then open) would
    // sometimes open the FIFO and block for good; the descriptor's own fstat never does.
    const path = join(dir, 'swapped')
    writeFileSync(`${path}.file`, 'a file\n')
    execFileSync('mkfifo', [`${path}.fifo`])
    // Each swap a hard link and a rename: the path holds one or the other, always.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const { linkSync, renameSync } = require('node:fs')
         const [path] = process.argv.slice(1)
         for (;;) for (const kind of ['fifo', 'file']) {
           linkSync(path + '.' + kind, path + '.tmp')
           renameSync(path + '.tmp', path)
         }`,
        path
      ],
      { stdio: 'ignore' }
    )
    try {
      const reader = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `import { openRegularFile, NotRegularFileError } from ${JSON.stringify(join(import.meta.dirname, 'read-regular-file.ts'))}
           import { closeSync, readFileSync } from 'node:fs'
           const seen = { file: 0, refused: 0, other: [] }
           for (let i = 0; i < 20000; i++) {
             try {
               const { fd } = openRegularFile(process.argv[1])
               const text = readFileSync(fd, 'utf8')
               closeSync(fd)
               if (text === 'a file\\n' || text === '') seen.file++
               else seen.other.push(text)
             } catch (error) {
               if (error instanceof NotRegularFileError) seen.refused++
               else if (error.code !== 'ENOENT') seen.other.push(String(error))
             }
           }
           console.log(JSON.stringify(seen))`,
          path
        ],
        // Far past the few seconds the 20,000 opens take: only a reader stuck on the FIFO gets here.
        { encoding: 'utf8', timeout: 45_000 }
      )
      expect(reader.signal, `the reader hung: ${reader.stderr}`).toBeNull()
      const seen = JSON.parse(reader.stdout) as { file: number; refused: number; other: string[] }
      expect(seen.other).toEqual([])
      expect(seen.file + seen.refused).toBeGreaterThan(0)
    } finally {
      swapper.kill('SIGKILL')
    }
  }, 60_000)
})

describe('readRegularFileAt', () => {
  const path = join(dir, 'at')
  const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 13) % 256))
  writeFileSync(path, bytes)

  it('reads the bytes from an offset, fewer at the end, none past it', () => {
    expect(readRegularFileAt(path, 0, 100).equals(bytes.subarray(0, 100))).toBe(true)
    expect(readRegularFileAt(path, 9_990, 100).equals(bytes.subarray(9_990))).toBe(true)
    expect(readRegularFileAt(path, 20_000, 100).length).toBe(0)
  })

  it('allocates what the file holds, not the bound asked (a 3 GiB bound on a small file)', () => {
    expect(readRegularFileAt(path, 0, 3 * 2 ** 30).equals(bytes)).toBe(true)
  })

  it('refuses a FIFO at once', () => {
    const fifo = join(dir, 'at-fifo')
    execFileSync('mkfifo', [fifo])
    expect(() => readRegularFileAt(fifo, 0, 10)).toThrow(NotRegularFileError)
  })
})
