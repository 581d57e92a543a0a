// Issue 28 item 10: a rescue restore does what Claude Code's own "Restore code" does, from the same
// start. In test/fixtures/claude-code/rewind-continue*, the real Claude Code 2.1.197 ran prompts,
// was quit and started with --continue, files were edited by hand, and its /rewind restored the
// code to before prompt 1: `workspace-before-restore/` is the start, `workspace-after/` what its
// own restore left (a.txt back to a0; b.txt, e.txt and f.txt deleted: e and f were first tracked
// after prompt 1, their first backup "did not exist", hand edits and all). The report
// said Claude Code kept e.txt and f.txt; in all three runs it deleted them (README.md there).
// Ours, from the same start, must leave the same files, and its preview must say which files
// hold content no backup of Claude Code holds (the hand edits, the last turn's writes): the
// restore replaces what only its undo will give back.
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { FIXTURES, fingerprint } from './cc-fixtures'

/**
 * The session in a Claude home of its own, byte for byte (Claude Code names a file's backups by
 * its absolute path there: the transcript keeps the path it ran in), and its workspace as it was
 * before Claude Code's restore, in a folder of its own named with --cwd.
 */
function beforeRestore(name: string) {
  const base = mkdtempSync(join(tmpdir(), `rs-cc-${name}-`))
  const claudeHome = join(base, 'claude')
  cpSync(join(FIXTURES, name, 'claude'), claudeHome, { recursive: true })
  const workspace = join(base, 'ws')
  cpSync(join(FIXTURES, name, 'workspace-before-restore'), workspace, { recursive: true })
  const projects = join(claudeHome, 'projects')
  const folder = join(projects, readdirSync(projects)[0] ?? '')
  const transcript = readdirSync(folder).find((f) => f.endsWith('.jsonl')) ?? ''
  const home = join(base, 'rs')
  return {
    file: join(folder, transcript),
    workspace,
    claudeHome,
    env: { CLAUDE_CONFIG_DIR: claudeHome, REWIND_STUDIO_HOME: home }
  }
}

const contents = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')])
  )

describe("a rescue restore leaves the files Claude Code's own restore left", () => {
  it.each([
    // After --continue, in the same process: e.txt and f.txt hold hand edits no backup holds.
    ['rewind-continue', ['e.txt', 'f.txt']],
    // Quit and started again before the /rewind: that process backed up the hand-edited e.txt
    // and f.txt (their @v3 and @v2), so no content of theirs is lost.
    ['rewind-continue-restart', []],
    ['rewind-continue-code', ['e.txt', 'f.txt']]
  ])('%s', async (name, unbacked) => {
    const cc = beforeRestore(name)
    const claudeBefore = fingerprint(cc.claudeHome)
    const dry = await runCli(
      ['rewind', cc.file, '--to', '1', '--cwd', cc.workspace, '--dry-run', '--json'],
      { env: cc.env }
    )
    expect(dry.stderr).toBe('')
    expect(JSON.parse(dry.stdout)).toEqual({
      restore: ['a.txt'],
      delete: ['b.txt', 'e.txt', 'f.txt'],
      recreate: [],
      outsideChanges: unbacked,
      skipped: []
    })
    const text = await runCli(
      ['rewind', cc.file, '--to', '1', '--cwd', cc.workspace, '--dry-run'],
      { env: cc.env }
    )
    for (const path of unbacked) {
      expect(text.stdout).toContain(
        `delete (did not exist then) ${path} (what it holds now is in no backup)`
      )
    }
    if (unbacked.length > 0)
      expect(text.stdout).toContain('hold what no backup of Claude Code holds')

    const applied = await runCli(['rewind', cc.file, '--to', '1', '--cwd', cc.workspace], {
      env: cc.env
    })
    expect(applied.code).toBe(0)
    expect(contents(cc.workspace)).toEqual(contents(join(FIXTURES, name, 'workspace-after')))
    expect(fingerprint(cc.claudeHome)).toEqual(claudeBefore)
    // Its undo gives back what no backup held.
    const undone = await runCli(['rewind', cc.file, '--undo', '--cwd', cc.workspace], {
      env: cc.env
    })
    expect(undone.code).toBe(0)
    expect(contents(cc.workspace)).toEqual(
      contents(join(FIXTURES, name, 'workspace-before-restore'))
    )
  })
})
