// Finding 9: "ENOSPC, EFBIG and ENOTDIR are printed raw: name the file and say that nothing was
// changed."
// A full disk the way the project makes one (test/session/disk-full.test.ts): a file-size limit
// (`ulimit -f`) on a child process, which gets EFBIG where a full disk gives ENOSPC; the words
// come from one table (src/core/os/write-failure.ts) for both. A path through a file (ENOTDIR)
// needs no limit. Each message names the file, says why in words and what became of the data.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileStateTable } from '../../src/core/agent/file-state'
import { runTool } from '../../src/core/agent/tools/tool'
import { writeTool } from '../../src/core/agent/tools/write'
import { sessionsDir } from '../../src/core/session/paths'
import { makeWorkspace, openSession, sessionsClosedAfterEach } from '../rewind/fixture'
import { repoRoot, runCli } from '../support/cli'

const { track } = sessionsClosedAfterEach()
const EFBIG = 'the file would be larger than the system allows (EFBIG)'
const ENOTDIR = 'a part of its path is a file, not a folder (ENOTDIR)'

/**
 * Runs one scenario of the child under a file-size limit ~50 KB over the session file (or, with
 * `under`, ~50 KB under it: the session file can take no byte more).
 */
function underSizeLimit(
  scenario: string,
  where: { home: string; cwd: string },
  file: string,
  under = false
) {
  // bash counts `ulimit -f` in KiB.
  const size = statSync(file).size
  const blocks = under ? Math.floor(size / 1024) - 50 : Math.ceil(size / 512) + 100
  const child = spawnSync(
    'bash',
    [
      '-c',
      `ulimit -f ${blocks} && exec "${process.execPath}" --import tsx "$0" "$@"`,
      join(import.meta.dirname, 'fixtures/disk-full-child.ts'),
      scenario,
      where.home,
      where.cwd,
      file
    ],
    { encoding: 'utf8' }
  )
  expect(child.stderr).toBe('')
  return child.stdout.trim()
}

async function sessionWithPrompt(files: Record<string, string> = {}) {
  const where = makeWorkspace(files)
  const s = await openSession(where)
  s.prompt('one')
  const file = s.store.file
  await s.close()
  return { where, file }
}

describe('a write the disk refuses (EFBIG under a size limit)', () => {
  it('a session append names the session file and says nothing was appended', async () => {
    const { where, file } = await sessionWithPrompt()
    expect(underSizeLimit('append', where, file)).toBe(
      `Could not write ${file}: ${EFBIG}; nothing was appended`
    )
  })

  it('the Write tool names the file and says it was left as it was', async () => {
    const { where, file } = await sessionWithPrompt()
    expect(underSizeLimit('write', where, file)).toBe(
      `Could not write big.txt: ${EFBIG}; the file was left as it was`
    )
    expect(existsSync(join(where.cwd, 'big.txt'))).toBe(false)
  })

  it('a backup the Write tool needs names the file and the backup folder, nothing written', async () => {
    const { where, file } = await sessionWithPrompt()
    expect(underSizeLimit('backup', where, file)).toMatch(
      new RegExp(
        `^could not back up big\\.txt: Could not write a backup in ${where.home}/file-history/\\S+: ${EFBIG.replace(/[()]/g, '\\$&')}; nothing was written$`
      )
    )
    expect(existsSync(join(where.cwd, 'big.txt'))).toBe(false)
  })

  it('a restore names the file and says nothing was changed', async () => {
    const where = makeWorkspace({ 'big.txt': 'x'.repeat(200_000) })
    const s = await openSession(where)
    s.prompt('shrink big.txt')
    await s.write('big.txt', 'small')
    const file = s.store.file
    await s.close()
    expect(underSizeLimit('restore', where, file)).toBe(
      `Could not restore big.txt: ${EFBIG}. Nothing was changed.`
    )
    expect(readFileSync(join(where.cwd, 'big.txt'), 'utf8')).toBe('small')
  })

  it('a backup a restore needs names the file and says nothing was changed', async () => {
    const where = makeWorkspace({ 'big.txt': 'small' })
    const s = await openSession(where)
    s.prompt('change big.txt')
    await s.write('big.txt', 'v2')
    // Changed by hand since: the restore must back this up first, and it does not fit.
    s.hand('big.txt', randomBytes(200_000).toString('base64'))
    const file = s.store.file
    await s.close()
    expect(underSizeLimit('restore', where, file)).toMatch(
      new RegExp(
        `^Could not back up big\\.txt: Could not write a backup in ${where.home}/file-history/\\S+: ${EFBIG.replace(/[()]/g, '\\$&')}\\. Nothing was changed\\.$`
      )
    )
  })
})

describe('a restore written whole that the session cannot record (its log refused)', () => {
  it('puts the files back, says why, and leaves its journal rolled back', async () => {
    const where = makeWorkspace({ 'a.txt': 'one' })
    const s = await openSession(where)
    s.prompt('first')
    await s.write('a.txt', 'two')
    s.reply('x'.repeat(200_000)) // a log well over the limit the child gets
    s.prompt('second')
    await s.write('a.txt', 'three')
    const file = s.store.file
    const restores = s.history.paths.restores
    await s.close()
    const before = readFileSync(file)
    expect(underSizeLimit('unrecorded', where, file, true)).toBe(
      `Could not record the restore: Could not write ${file}: ${EFBIG}; nothing was appended. Its files were put back: nothing was changed.`
    )
    expect(readFileSync(join(where.cwd, 'a.txt'), 'utf8')).toBe('three')
    expect(readFileSync(file)).toEqual(before)
    const journals = readdirSync(restores).filter((name) => name.endsWith('.json'))
    expect(
      journals.map((name) => JSON.parse(readFileSync(join(restores, name), 'utf8')).state)
    ).toEqual(['rolled-back'])
  })
})

describe('a path through a file (ENOTDIR)', () => {
  it('the Write tool names the file and says it was left as it was', async () => {
    const s = track(await openSession(makeWorkspace({ 'notes.txt': 'mine' })))
    s.prompt('write inside notes.txt')
    const result = await runTool(
      writeTool,
      { file_path: 'notes.txt/sub/inner.txt', content: 'x' },
      {
        cwd: s.cwd,
        fileState: new FileStateTable(),
        guard: s.history,
        allowedOutsideRoots: [],
        signal: new AbortController().signal
      }
    )
    expect(result).toEqual({
      isError: true,
      content: `Could not write notes.txt/sub/inner.txt: ${ENOTDIR}; the file was left as it was`
    })
    expect(readFileSync(join(s.cwd, 'notes.txt'), 'utf8')).toBe('mine')
  })

  it('a restore names the file and says nothing was changed', async () => {
    const s = track(await openSession(makeWorkspace({ 'dir/sub/a.txt': 'v1' })))
    const prompt = s.prompt('change dir/sub/a.txt')
    await s.write('dir/sub/a.txt', 'v2')
    rmSync(join(s.cwd, 'dir'), { recursive: true })
    writeFileSync(join(s.cwd, 'dir'), 'a file now')
    // Found at the plan, before anything is written (a dry run says the same): the folder
    // where the file goes is a file now.
    await expect(s.engine.rewind(prompt, 'code')).rejects.toThrow(
      'Cannot put dir/sub/a.txt back: dir is not a folder now (a file is in the way, made since). Move it and try again. Nothing was changed.'
    )
    expect(readFileSync(join(s.cwd, 'dir'), 'utf8')).toBe('a file now')
  })

  it('the CLI says which folder could not be made, and that no session was created', async () => {
    const { where } = await sessionWithPrompt()
    writeFileSync(join(where.home, 'not-a-folder'), '')
    const home = join(where.home, 'not-a-folder', 'home')
    const run = await runCli(
      [
        'chat',
        '--cwd',
        where.cwd,
        '--model',
        `scripted:${join(repoRoot, 'demo/scripted-model.json')}`
      ],
      { env: { REWIND_STUDIO_HOME: home } }
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      `rewind-studio: Could not write ${sessionsDir(home, where.cwd)}: ${ENOTDIR}; no session was created\n`
    )
  })

  it('the CLI prints any other OS error as its path and reason in words, with no stack', async () => {
    const { where } = await sessionWithPrompt()
    // The backup folder cannot be made: file-history is a file.
    rmSync(join(where.home, 'file-history'), { recursive: true, force: true })
    writeFileSync(join(where.home, 'file-history'), '')
    const run = await runCli(
      [
        'chat',
        '--cwd',
        where.cwd,
        '--model',
        `scripted:${join(repoRoot, 'demo/scripted-model.json')}`
      ],
      { env: { REWIND_STUDIO_HOME: where.home } }
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      new RegExp(
        `^rewind-studio: ${where.home}/file-history\\S*: (a part of its path is a file, not a folder \\(ENOTDIR\\)|a file is in the way \\(EEXIST\\))\\n$`
      )
    )
  })

  it('a restore whose journal cannot be written names its folder, nothing changed', async () => {
    const s = track(await openSession(makeWorkspace({ 'a.txt': 'v1' })))
    const prompt = s.prompt('change a.txt')
    await s.write('a.txt', 'v2')
    const restores = s.history.paths.restores
    rmSync(restores, { recursive: true, force: true })
    writeFileSync(restores, '')
    await expect(s.engine.rewind(prompt, 'code')).rejects.toThrow(
      `Could not write the restore journal in ${restores}: a file is in the way (EEXIST). Nothing was changed.`
    )
    expect(readFileSync(join(s.cwd, 'a.txt'), 'utf8')).toBe('v2')
  })
})

/** Whether this process may set a file immutable (chattr +i needs CAP_LINUX_IMMUTABLE). */
function immutable(path: string, on: boolean): boolean {
  return spawnSync('chattr', [on ? '+i' : '-i', path], { stdio: 'ignore' }).status === 0
}

describe('a delete the OS refuses (EPERM)', () => {
  // Issue 26, item 14: "an EPERM delete is reported as ENOTDIR" (rmSync tries the file as a
  // folder when unlink says EPERM, and reports that).
  it('is named as not permitted, not as a path through a file', async (context) => {
    const s = track(await openSession(makeWorkspace({ 'keep.txt': 'v1' })))
    const prompt = s.prompt('make new.txt')
    await s.write('new.txt', 'made after the checkpoint')
    const file = join(s.cwd, 'new.txt')
    if (!immutable(file, true)) {
      console.log('disk-errors-named.test.ts: EPERM case skipped: chattr +i is not allowed here')
      context.skip()
    }
    try {
      await expect(s.engine.rewind(prompt, 'code')).rejects.toThrow(
        'Could not restore new.txt: the operation is not permitted (EPERM). Nothing was changed.'
      )
      expect(readFileSync(file, 'utf8')).toBe('made after the checkpoint')
    } finally {
      immutable(file, false)
    }
  })
})
