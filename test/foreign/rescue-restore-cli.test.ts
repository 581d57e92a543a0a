// `rewind-studio rewind CLAUDE_SESSION.jsonl --to N --mode code`, the real command in a child
// process on a real Claude Code session: the files put back as Claude Code's backups say they
// were before prompt N, into the session's recorded workspace; --dry-run changes nothing; --undo
// and --redo walk its timeline; a missing backup is named and its file skipped (the restore says it is partial);
// Claude Code's files are only read.
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { copyFixture, fingerprint, relocateToWorkspace } from './cc-fixtures'

const read = (ws: string, file: string) => readFileSync(join(ws, file), 'utf8')

describe('rescue restore from the command line', () => {
  it('previews, restores before prompt N in the recorded workspace, and undoes', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    writeFileSync(join(cc.workspace, 'mine.txt'), 'not the session’s\n')
    const claudeBefore = fingerprint(cc.claudeHome)
    const workspaceBefore = fingerprint(cc.workspace)

    const dry = await runCli(['rewind', cc.file, '--to', '2', '--mode', 'code', '--dry-run'], {
      env: cc.env
    })
    expect(dry.stderr).toBe('')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('restore config.txt')
    expect(dry.stdout).toContain('delete (did not exist then) README.md')
    expect(dry.stdout).toContain('-mode=c')
    expect(fingerprint(cc.workspace)).toEqual(workspaceBefore)
    // Nothing written anywhere, our data home included.
    expect(existsSync(join(cc.home, 'foreign'))).toBe(false)

    const applied = await runCli(['rewind', cc.file, '--to', '2', '--json'], { env: cc.env })
    expect(applied.code).toBe(0)
    expect(JSON.parse(applied.stdout)).toEqual({
      restore: ['config.txt'],
      delete: ['README.md'],
      recreate: [],
      // As the last turn left them: Claude Code keeps only the content before a change.
      outsideChanges: ['README.md', 'config.txt'],
      skipped: []
    })
    expect(read(cc.workspace, 'config.txt')).toBe('mode=a\n')
    expect(existsSync(join(cc.workspace, 'README.md'))).toBe(false)

    const earlier = await runCli(['rewind', cc.file, '--to', '1'], { env: cc.env })
    expect(earlier.code).toBe(0)
    expect(readdirSync(cc.workspace).sort()).toEqual(['mine.txt', 'notes'])

    for (let i = 0; i < 2; i++) {
      const undone = await runCli(['rewind', cc.file, '--undo'], { env: cc.env })
      expect(undone.stdout).toContain('Undone')
    }
    expect(fingerprint(cc.workspace)).toEqual(workspaceBefore)
    // Redo brings back the first restore undone: the files before prompt 2.
    const redone = await runCli(['rewind', cc.file, '--redo'], { env: cc.env })
    expect(redone.stdout).toContain('Redone')
    expect(read(cc.workspace, 'config.txt')).toBe('mode=a\n')
    expect(existsSync(join(cc.workspace, 'README.md'))).toBe(false)
    expect(fingerprint(cc.claudeHome)).toEqual(claudeBefore)
  })

  it('names a missing backup, skips that file, and says the restore is partial', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    rmSync(join(cc.claudeHome, 'file-history', cc.sessionId, 'b79470cdb821c868@v2'))
    const run = await runCli(['rewind', cc.file, '--to', '2', '--json'], { env: cc.env })
    expect(run.code).toBe(1)
    const out = JSON.parse(run.stdout) as {
      delete: string[]
      skipped: { path: string; reason: string }[]
    }
    expect(out.delete).toEqual(['README.md'])
    expect(out.skipped).toEqual([
      { path: 'config.txt', reason: expect.stringContaining('b79470cdb821c868@v2') as unknown }
    ])
    expect(run.stderr).toContain('config.txt is skipped')
    expect(read(cc.workspace, 'config.txt')).toBe('mode=c\n')

    // Undone (README.md is back), then done again in words.
    expect((await runCli(['rewind', cc.file, '--undo'], { env: cc.env })).code).toBe(0)
    const words = await runCli(['rewind', cc.file, '--to', '2'], { env: cc.env })
    expect(words.stdout).toContain('Partly restored to before prompt 2')
  })

  it('restores nothing when no backup is left, records no step and says so', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    // Claude Code cleaned its backups up; the one file that needs none is already gone.
    rmSync(join(cc.claudeHome, 'file-history', cc.sessionId), { recursive: true })
    rmSync(join(cc.workspace, 'README.md'))
    const before = fingerprint(cc.workspace)
    const run = await runCli(['rewind', cc.file, '--to', '2'], { env: cc.env })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('config.txt is skipped')
    expect(run.stderr).toContain('Nothing was restored, and no step was recorded')
    expect(fingerprint(cc.workspace)).toEqual(before)
    const undo = await runCli(['rewind', cc.file, '--undo'], { env: cc.env })
    expect(undo.code).toBe(1)
    expect(undo.stderr).toContain('Nothing to undo')
  })

  it('refuses what it cannot do, changing nothing', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    const before = fingerprint(cc.workspace)
    // Not in Claude Code's folder for the workspace it names: the folder must be given.
    const copy = join(cc.home, '..', 'copied-session.jsonl')
    copyFileSync(cc.file, copy)
    const elsewhere = await runCli(['rewind', copy, '--to', '1'], { env: cc.env })
    expect(elsewhere.code).toBe(1)
    expect(elsewhere.stderr).toContain('give --cwd DIR')
    // The conversation of a Claude Code session is never rewritten.
    const both = await runCli(
      ['rewind', cc.file, '--to', '1', '--mode', 'both', '--cwd', cc.workspace],
      {
        env: cc.env
      }
    )
    expect(both.stderr).toContain('rewind-studio continue')
    // After the last prompt's turn there is no backup to go to.
    const after = await runCli(['rewind', cc.file, '--to', '3', '--cwd', cc.workspace], {
      env: cc.env
    })
    expect(after.stderr).toContain('was never saved')
    expect(fingerprint(cc.workspace)).toEqual(before)
  })
})
