// Gemini CLI 0.61.0's chats and checkpoints, made by the real CLI (test/fixtures/gemini-cli/
// README.md): the prompts are the person's, the `/restore` the CLI ran is a branch (the
// conversation it set goes on, what it left stays drawn), `--list-sessions` lists the two files
// of one resumed session once, the home is found as Gemini finds it ($GEMINI_CLI_HOME/.gemini),
// and a rescue restore from its checkpoints leaves the files its own /restore left, from the
// same start (workspace-before-restore/).
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { Sources } from '../../src/core/sources/discovery'
import { sourceHomes } from '../../src/core/sources/homes'
import { runCli } from '../support/cli'
import { fingerprint } from './cc-fixtures'
import { TOOL_FIXTURES, contents, geminiHome } from './tool-homes'

const prompts = (file: string) =>
  readSessionFile(file)
    .tree.checkpoints()
    .map((c) => c.prompt)

describe('Gemini CLI chats', () => {
  it('reads a /rewind ($rewindTo) as a branch: the path ends before the message it names', () => {
    const { chats } = geminiHome('gemini-home-before-restore', 'workspace-before-restore')
    const file = join(mkdtempSync(join(tmpdir(), 'rs-gemini-rewind-')), 'session-rewound.jsonl')
    copyFileSync(chats[0] ?? '', file)
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean)
    const notes = lines
      .map((line) => JSON.parse(line) as { id?: string; type?: string; content?: unknown })
      .find((m) => m.type === 'user' && JSON.stringify(m.content).includes('write the notes'))
    expect(notes?.id).toBeTruthy()
    const later = (id: string, type: string, content: unknown) =>
      JSON.stringify({ id, timestamp: '2026-12-02T00:00:00.000Z', type, content })
    appendFileSync(
      file,
      [
        JSON.stringify({ $rewindTo: notes?.id }),
        later('p-again', 'user', [{ text: 'write the notes differently' }]),
        later('a-again', 'gemini', 'Written differently.'),
        ''
      ].join('\n')
    )
    const loaded = readSessionFile(file)
    expect(loaded.problems).toEqual([])
    expect(prompts(file)).toEqual([
      'write the plan',
      'edit the plan',
      'write the notes differently'
    ])
    // What the rewind left is a branch beside the new prompt, from the same turn.
    const { tree } = loaded
    const left = tree.leaves().filter((leaf) => leaf !== tree.leafUuid)
    const leftPrompts = left.flatMap((leaf) =>
      tree.checkpoints(tree.pathTo(leaf)).map((c) => c.prompt)
    )
    expect(leftPrompts).toEqual([
      'write the plan',
      'edit the plan',
      'write the notes',
      'run a shell'
    ])
  })

  it("reads the person's prompts, and its /restore as a branch the conversation goes on from", () => {
    const before = geminiHome('gemini-home-before-restore', 'workspace-before-restore')
    const [chat] = before.chats
    const loaded = readSessionFile(chat ?? '')
    expect(loaded.format).toBe('gemini-cli')
    expect(loaded.problems).toEqual([])
    // Its cwd is the project's root Gemini keeps beside the chats (the chat names none).
    expect(loaded.tree.header?.cwd).toBe(before.workspace)
    // The <session_context> block the CLI sends first is no prompt.
    expect(prompts(chat ?? '')).toEqual([
      'write the plan',
      'edit the plan',
      'write the notes',
      'run a shell'
    ])

    const after = geminiHome('gemini-home', 'workspace-after')
    const [resumed] = after.chats
    const tree = readSessionFile(resumed ?? '').tree
    // After /restore and --resume the conversation is what the CLI set, then the new prompt.
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual(['write the notes again'])
    // The turns the restore left are a branch of the graph, not lost.
    expect(tree.leaves().length).toBeGreaterThan(1)
    const all = new Set<string>()
    for (const leaf of tree.leaves())
      for (const c of tree.checkpoints(tree.pathTo(leaf))) all.add(c.prompt)
    expect(all).toEqual(
      new Set([
        'write the plan',
        'edit the plan',
        'write the notes',
        'run a shell',
        'write the notes again'
      ])
    )
  })

  it('is found in $GEMINI_CLI_HOME/.gemini and lists a resumed session once, as --list-sessions does', () => {
    const g = geminiHome('gemini-home', 'workspace-after')
    const homes = sourceHomes(g.home, g.env)
    expect(homes['gemini-cli']).toBe(g.toolHome)
    const sources = new Sources({ home: g.home, homes, persist: false })
    const listed = sources.workspaceSessions(g.workspace).filter((s) => s.source === 'gemini-cli')
    // list-sessions.txt: "Available sessions for this project (1)", by the session id.
    expect(listed.map((s) => s.sessionId)).toEqual(['a6b519b3-0ebe-4876-b045-b5689d0cb84e'])
    for (const chat of g.chats) expect(sources.sourceOf(chat)).toBe('gemini-cli')
    const elsewhere = join(g.base, 'chats', 'session-copy.jsonl')
    mkdirSync(dirname(elsewhere))
    copyFileSync(g.chats[0] ?? '', elsewhere)
    expect(sources.sourceOf(elsewhere)).toBeNull()
    // Under All projects too: its two chat files are the one session Gemini lists.
    expect(sources.projects().find((p) => p.cwd === g.workspace)?.sessions).toBe(1)
  })

  it("restores from Gemini's checkpoints the files its own /restore restored", async () => {
    const g = geminiHome('gemini-home-before-restore', 'workspace-before-restore')
    const [chat] = g.chats
    const toolBefore = fingerprint(g.toolHome)
    const dry = await runCli(['rewind', chat ?? '', '--to', '1', '--dry-run', '--json'], {
      env: g.env
    })
    expect(dry.stderr).toBe('')
    // notes.txt was written after the last checkpoint: no checkpoint holds what it holds now.
    expect(JSON.parse(dry.stdout)).toEqual({
      restore: [],
      delete: ['notes.txt', 'plan.txt'],
      recreate: [],
      outsideChanges: ['notes.txt'],
      skipped: []
    })
    const applied = await runCli(['rewind', chat ?? '', '--to', '1'], { env: g.env })
    expect(applied.code).toBe(0)
    // Gemini's /restore checked the first checkpoint out (plan.txt did not exist yet), then
    // re-ran the write it was made before (plan.txt "plan v1", workspace-after-restore/); it
    // also cleaned away shell.txt, which no checkpoint and no edit of the session names: ours
    // never deletes a file the session's edits and checkpoints do not name.
    const theirs = contents(join(TOOL_FIXTURES, 'gemini-cli', 'workspace-after-restore'))
    delete theirs['plan.txt']
    expect(contents(g.workspace)).toEqual({ ...theirs, 'shell.txt': 'shell\n' })
    expect(fingerprint(g.toolHome)).toEqual(toolBefore)
    const undone = await runCli(['rewind', chat ?? '', '--undo'], { env: g.env })
    expect(undone.code).toBe(0)
    expect(contents(g.workspace)).toEqual(
      contents(join(TOOL_FIXTURES, 'gemini-cli', 'workspace-before-restore'))
    )
  })

  it('restores from the checkpoint made after it started again, and says where it kept none', async () => {
    const g = geminiHome('gemini-home', 'workspace-after')
    const [chat] = g.chats
    // Gemini deleted the checkpoints of the turns before --resume when it started again: only
    // "write the notes again" has one (the same edit as "write the notes", asked for later).
    const loaded = readSessionFile(chat ?? '')
    const old = loaded.tree
      .leaves()
      .flatMap((leaf) => loaded.tree.checkpoints(loaded.tree.pathTo(leaf)))
      .find((c) => c.prompt === 'write the notes')
    expect(loaded.backups?.restoreTo(old?.uuid ?? '')).toEqual({
      refused: expect.stringContaining('Gemini CLI has no checkpoint left for this turn') as unknown
    })
    const run = await runCli(['rewind', chat ?? '', '--to', '1', '--json'], { env: g.env })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toMatchObject({ restore: [], delete: ['notes.txt'] })
    expect(contents(g.workspace)).toEqual({ 'plan.txt': 'plan v1\n' })
    const before = fingerprint(g.workspace)
    const none = await runCli(['rewind', chat ?? '', '--to', '2'], { env: g.env })
    expect(none.code).not.toBe(0)
    expect(fingerprint(g.workspace)).toEqual(before)
  })
})
