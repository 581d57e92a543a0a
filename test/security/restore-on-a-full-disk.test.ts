// "With the disk full": a restore that writes files in place (they need no space) and recreates
// one (it needs some) on a file system with no byte left. The recreate must fail before any
// file is written in place, so nothing changes; a restore that needs no space succeeds.
// A real full disk: a 2 MB tmpfs, filled. Mounting needs root (CAP_SYS_ADMIN); elsewhere the
// test is skipped, saying so (test/session/disk-full.test.ts and disk-errors-named.test.ts
// cover the messages under a file-size limit everywhere).
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { openSession } from '../rewind/fixture'

const disk = mkdtempSync(join(tmpdir(), 'rs-full-disk-'))
const mounted =
  process.platform === 'linux' &&
  spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2M', 'tmpfs', disk]).status === 0
if (!mounted) console.log(`restore-on-a-full-disk: skipped, a tmpfs cannot be mounted here`)
afterAll(() => {
  if (mounted) spawnSync('umount', [disk])
  rmSync(disk, { recursive: true, force: true })
})

const FILES = 20
const fill = (cwd: string) =>
  spawnSync('dd', ['if=/dev/zero', `of=${join(cwd, 'filler.bin')}`, 'bs=4k'], { stdio: 'ignore' })

/**
 * A session in folder `name` on the small disk: turn 1 writes FILES files and runs `first`,
 * turn 2 rewrites them and runs `then`; the disk is then filled to its last block.
 */
async function filledAfterTwoTurns(name: string, first: string, then: string) {
  const cwd = join(disk, name)
  mkdirSync(cwd)
  const home = join(mkdtempSync(join(tmpdir(), 'rs-full-home-')), 'home')
  const s = await openSession({ base: disk, cwd, home })
  s.prompt('create them')
  await s.bash(`for i in $(seq 1 ${FILES}); do echo "original $i" > f$i.txt; done`)
  await s.bash(first)
  s.reply('ok')
  s.prompt('rewrite them')
  await s.bash(`for i in $(seq 1 ${FILES}); do echo "rewritten $i" > f$i.txt; done; ${then}`)
  s.reply('ok')
  fill(cwd)
  return { cwd, s }
}

describe.skipIf(!mounted)('a restore on a full disk', () => {
  it('fails before writing any file in place when one needs space, and changes nothing', async () => {
    const { cwd, s } = await filledAfterTwoTurns(
      'ws',
      'head -c 8192 /dev/urandom > zz-gone.bin',
      'rm zz-gone.bin'
    )
    expect(execFileSync('df', ['--output=avail', disk], { encoding: 'utf8' })).toMatch(/\n\s*0\n/)

    // zz-gone.bin comes back only with space: refused, every file as it was.
    await expect(s.engine.rewind(checkpointAt(s.store, 2), 'code')).rejects.toThrow(
      /^Could not restore zz-gone\.bin: the disk is full \(ENOSPC\)\. Nothing was changed\.$/
    )
    for (let i = 1; i <= FILES; i++) expect(s.read(`f${i}.txt`)).toBe(`rewritten ${i}\n`)
    expect(existsSync(join(cwd, 'zz-gone.bin'))).toBe(false)

    // With room, it is done; its undo on a full disk again needs none (a deletion, writes in place).
    rmSync(join(cwd, 'filler.bin'))
    await s.engine.rewind(checkpointAt(s.store, 2), 'code')
    expect(s.read('f7.txt')).toBe('original 7\n')
    fill(cwd)
    await s.engine.undo()
    for (let i = 1; i <= FILES; i++) expect(s.read(`f${i}.txt`)).toBe(`rewritten ${i}\n`)
    expect(existsSync(join(cwd, 'zz-gone.bin'))).toBe(false)
    await s.close()
    rmSync(cwd, { recursive: true })
  })
  it('rolls back in place what it wrote in place when a later file needs space', async () => {
    const { s } = await filledAfterTwoTurns(
      'ws2',
      'head -c 16384 /dev/urandom > zz-grows.bin',
      'echo small > zz-grows.bin'
    )
    // zz-grows.bin is written last (after the files written in place) and needs new blocks.
    await expect(s.engine.rewind(checkpointAt(s.store, 2), 'code')).rejects.toThrow(
      /^Could not restore zz-grows\.bin: the disk is full \(ENOSPC\)\. Nothing was changed\.$/
    )
    for (let i = 1; i <= FILES; i++) expect(s.read(`f${i}.txt`)).toBe(`rewritten ${i}\n`)
    expect(s.read('zz-grows.bin')).toBe('small\n')
    await s.close()
  })
})
