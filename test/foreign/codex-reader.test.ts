// Codex CLI 0.171.0's rollouts, made by the real CLI (test/fixtures/codex/README.md): the prompts
// are the ones Codex itself lists (its backtrack screen steps through "first tui prompt" and
// "second tui prompt"; the harness's tagged blocks are none), a resume appends to the same file,
// a fork carries its parent's history up to the fork, and Codex's home is found as Codex finds it
// ($CODEX_HOME). Codex keeps no copy of the files it changes: a restore says so and changes
// nothing.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { conversationNodeOf, isPrompt } from '../../src/core/session/tree'
import { Sources } from '../../src/core/sources/discovery'
import { sourceHomes } from '../../src/core/sources/homes'
import { runCli } from '../support/cli'
import { fingerprint } from './cc-fixtures'
import { TOOL_FIXTURES, codexHome } from './tool-homes'

const rollout = (dir: string, part: string) => {
  const day = join(dir, 'sessions', '2026', '12', '01')
  const name = readdirSync(day).find((f) => f.includes(part))
  if (name === undefined) throw new Error(`no rollout ${part}`)
  return join(day, name)
}
const prompts = (file: string) =>
  readSessionFile(file)
    .tree.checkpoints()
    .map((c) => c.prompt)

/** The prompts a screen of the TUI shows (`› text`), without its empty composer. */
const screenPrompts = (name: string) =>
  readFileSync(join(TOOL_FIXTURES, 'codex', name), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('› ') && !l.includes('Ask Codex'))
    .map((l) => l.slice(2).trim())

describe('Codex CLI rollouts', () => {
  it('lists the prompts Codex lists, the resume in the same file, the fork with its parent', () => {
    const codex = codexHome()
    const exec = rollout(codex.toolHome, 'f7bd')
    const loaded = readSessionFile(exec)
    expect(loaded.format).toBe('codex')
    expect(loaded.problems).toEqual([])
    expect(loaded.tree.header?.cwd).toBe(codex.workspace)
    // `codex exec`, then `codex exec resume --last`: one file, both prompts.
    expect(prompts(exec)).toEqual(['create the notes', 'patch the notes'])
    // `codex exec fork`: the parent's history up to the fork (not copied in its file), then its own.
    expect(prompts(rollout(codex.toolHome, '01db'))).toEqual([
      'create the notes',
      'patch the notes',
      'append on the fork'
    ])
    // The TUI session, as its backtrack screen steps through it.
    const tui = rollout(codex.toolHome, '1c81-7873-83fe-941408e6ba35.jsonl')
    expect(prompts(tui)).toEqual(screenPrompts('screen-backtrack.txt'))
    // After the backtrack to the first prompt, Codex goes on in a new segment of the thread: its
    // tree holds the segment before as the branch the backtrack left.
    const segment = readSessionFile(rollout(codex.toolHome, '_01a2340a-7abe')).tree
    expect(segment.checkpoints().map((c) => c.prompt)).toEqual(['after the rewind'])
    expect(
      segment.leaves().map((leaf) => segment.checkpoints(segment.pathTo(leaf)).map((c) => c.prompt))
    ).toEqual(
      expect.arrayContaining([['first tui prompt', 'second tui prompt'], ['after the rewind']])
    )
    // Each tool call is drawn under its turn, with its result.
    const calls = loaded.tree
      .activePath()
      .flatMap((r) =>
        r.type === 'assistant' && Array.isArray(r.message.content)
          ? r.message.content.filter((b) => b.type === 'tool_use').map((b) => b.name)
          : []
      )
    expect(calls).toEqual(['exec_command', 'apply_patch'])
  })

  it("is found in Codex's home ($CODEX_HOME), listed for its workspace and under All projects", () => {
    const codex = codexHome()
    const homes = sourceHomes(codex.home, codex.env)
    expect(homes.codex).toBe(codex.toolHome)
    const sources = new Sources({ home: codex.home, homes, persist: false })
    const listed = sources.workspaceSessions(codex.workspace).filter((s) => s.source === 'codex')
    // One line per thread, as `codex resume` lists one: the TUI thread is its newest segment,
    // titled by its first prompt (screen-resume-picker.txt: "first tui prompt").
    expect(listed.map((s) => s.file).sort()).toEqual(
      ['f7bd', '01db', '_01a2340a-7abe'].map((part) => rollout(codex.toolHome, part)).sort()
    )
    expect(listed.find((s) => s.file.includes('_01a2340a-7abe'))?.title).toBe('first tui prompt')
    // Each counts the prompts its tree holds (issue 28 item 9's one rule): the fork its
    // parent's before its own, as its tree draws them.
    for (const session of listed) {
      const { tree } = readSessionFile(session.file)
      const prompts = tree.records.filter((r) => {
        const node = conversationNodeOf(r)
        return node !== null && isPrompt(node)
      })
      expect(session.summary.prompts, session.file).toBe(prompts.length)
    }
    expect(listed.find((s) => s.file === rollout(codex.toolHome, '01db'))?.summary.prompts).toBe(3)
    expect(sources.sourceOf(rollout(codex.toolHome, '01db'))).toBe('codex')
    // The same file anywhere else is no session the app opens.
    const elsewhere = join(codex.base, 'rollout-copy.jsonl')
    copyFileSync(rollout(codex.toolHome, '01db'), elsewhere)
    expect(sources.sourceOf(elsewhere)).toBeNull()
    // Under All projects too, one per thread as Codex lists them: four rollouts, three threads.
    const project = sources.projects().find((p) => p.cwd === codex.workspace)
    expect(project?.folders.filter((f) => f.source === 'codex')).toEqual([
      { source: 'codex', folder: dirname(rollout(codex.toolHome, 'f7bd')), sessions: 3 }
    ])
    expect(project?.sessions).toBe(3)
  })

  it('counts a thread once under All projects when its segments lie in different day folders', () => {
    const codex = codexHome()
    // The backtrack went on the next day: Codex writes a segment under the day it is begun.
    const segment = rollout(codex.toolHome, '_01a2340a-7abe')
    const nextDay = join(codex.toolHome, 'sessions', '2026', '12', '02')
    mkdirSync(nextDay)
    renameSync(segment, join(nextDay, basename(segment)))
    const sources = new Sources({
      home: codex.home,
      homes: sourceHomes(codex.home, codex.env),
      persist: false
    })
    const project = sources.projects().find((p) => p.cwd === codex.workspace)
    expect(project?.folders.filter((f) => f.source === 'codex')).toEqual([
      { source: 'codex', folder: dirname(rollout(codex.toolHome, 'f7bd')), sessions: 2 },
      { source: 'codex', folder: nextDay, sessions: 1 }
    ])
    expect(project?.sessions).toBe(3)
  })

  it('says Codex keeps no backups where a restore is asked, and changes nothing', async () => {
    const codex = codexHome()
    const before = fingerprint(codex.workspace)
    const run = await runCli(['rewind', rollout(codex.toolHome, 'f7bd'), '--to', '1'], {
      env: codex.env
    })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('Codex CLI keeps no backups of the files it changes')
    expect(fingerprint(codex.workspace)).toEqual(before)
  })
})
