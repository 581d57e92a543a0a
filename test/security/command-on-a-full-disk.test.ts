// Issue 26, item 5: "Disk full during a command: its changes are never recorded, and a later
// rewind to before it says 'Rewound' and leaves them, with a warning only at the time. The rewind
// must say that it could not restore them."
//
// A real full disk: a tmpfs holding the workspace and the data home, filled by the command itself,
// run through the Bash tool (mounting needs root; elsewhere the test is skipped, saying so).
// File history keeps a reserve of real blocks per session (disk-reserve.ts): the command's records
// go in its place, or, when they would not fit, one record naming what could not be recorded.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { type ToolSession, openToolSession } from '../support/tool-session'

const disk = mkdtempSync(join(tmpdir(), 'rs-full-command-'))
const mounted =
  process.platform === 'linux' &&
  spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16M', 'tmpfs', disk]).status === 0
if (!mounted) console.log('command-on-a-full-disk: skipped, a tmpfs cannot be mounted here')
afterAll(() => {
  // Lazily: the blob store may still hold a pack open there until this process exits.
  if (mounted) spawnSync('umount', ['-l', disk])
  rmSync(disk, { recursive: true, force: true })
})

const open: ToolSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
  // The next test gets the whole disk.
  for (const name of ['a', 'b']) rmSync(join(disk, name), { recursive: true, force: true })
})

/** `count` files f0.txt… in a session on the small disk, a first turn done. */
async function onTheSmallDisk(name: string, count: number): Promise<ToolSession> {
  execFileSync('mkdir', ['-p', join(disk, name)])
  const files = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`f${i}.txt`, `original ${i}\n`])
  )
  const s = await openToolSession({ base: join(disk, name), files })
  open.push(s)
  s.prompt('one')
  await s.bash('echo one > one.txt')
  s.reply('ok')
  return s
}

const changeAllThenFill = (count: number) =>
  `for i in $(seq 0 ${count - 1}); do echo "changed $i" > f$i.txt; done; head -c 64M /dev/urandom > filler.bin`

describe.skipIf(!mounted)('a command that fills the disk', () => {
  it('has its changes recorded all the same, so a rewind to before it puts the files back', async () => {
    const s = await onTheSmallDisk('a', 60)
    s.prompt('two')
    const out = await s.bash(changeAllThenFill(60))
    expect(out.content).toMatch(/\nModified: f0\.txt, f1\.txt, f10\.txt, /)
    expect(out.content).toContain(
      "\nWarning: the disk is full (ENOSPC): the command's changes were recorded in the space file history keeps for this; free some space\n"
    )
    // The user makes room; a later process rewinds.
    rmSync(join(s.cwd, 'filler.bin'))
    open.pop()
    const later = await s.reopen()
    open.push(later)
    const { plan } = await later.rewindTo(2)
    // Only what was past the backup cap: the filler, which the user removed.
    expect(plan.unrestorable).toEqual([
      {
        path: 'filler.bin',
        reason:
          'a command changed it and file history could not back it up (larger than the 10 MB backup cap)'
      }
    ])
    for (let i = 0; i < 60; i++) expect(later.read(`f${i}.txt`)?.toString()).toBe(`original ${i}\n`)
  })

  it('leaves a record of what it could not record, and a rewind says it cannot restore those files', async () => {
    const s = await onTheSmallDisk('b', 1_500)
    s.prompt('two')
    const out = await s.bash(changeAllThenFill(1_500))
    expect(out.content).toContain(
      "\nWarning: the disk is full (ENOSPC): the command's changes could not be recorded, so a rewind cannot restore f0.txt, f1.txt, f10.txt, f100.txt, f1000.txt, f1001.txt, f1002.txt, f1003.txt, f1004.txt, f1005.txt and 1491 more, and will say so\n"
    )
    rmSync(join(s.cwd, 'filler.bin'))
    open.pop()
    await s.close()
    // A later `rewind --to 2`, as a user runs it.
    const run = await runCli(['rewind', s.store.file, '--to', '2'], {
      env: { REWIND_STUDIO_HOME: s.home }
    })
    expect(run.code).toBe(0)
    const notes = run.stderr.split('\n').filter((line) => line.startsWith('note: '))
    const why =
      'cannot be restored: a command changed it and file history could not back it up (its change could not be recorded: the disk is full (ENOSPC))'
    expect(notes.slice(0, 2)).toEqual([`note: f0.txt ${why}`, `note: f1.txt ${why}`])
    // 1,501 paths (filler.bin too): 200 named, the rest counted.
    expect(notes).toHaveLength(201)
    expect(notes.at(-1)).toBe(
      'note: (1301 more) cannot be restored: 1301 more changes a command made that file history could not back up'
    )
    expect(run.stdout.split('\n')).toContain(
      'Rewound to before checkpoint 2 (mode both); the conversation keeps 2 messages; 201 paths could not be restored (see the notes above).'
    )
    expect(s.read('f0.txt')?.toString()).toBe('changed 0\n')
  })
})
