// Codex CLI 0.171.0's rollouts, made by the real CLI (test/fixtures/codex/README.md): the prompts
// are the ones Codex itself lists (its backtrack screen steps through "first tui prompt" and
// "second tui prompt"; the harness's tagged blocks are none), a resume appends to the same file,
// a fork carries its parent's history up to the fork, and Codex's home is found as Codex finds it
// ($CODEX_HOME). The files each turn's apply_patch calls changed are that turn's file changes,
// whatever form the call took (test/fixtures/codex-patches: a custom tool call, an exec_command
// heredoc), named but with no content: Codex keeps no copy of the files it changes, so a restore
// says so and changes nothing.
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync
} from 'node:fs'
import { tmpdir } from 'node:os'
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
/** Each prompt with what its turn changed: `action path` per file_change record. */
const changesPerTurn = (file: string) => {
  const { tree } = readSessionFile(file)
  return tree
    .checkpoints()
    .map((c) => [c.prompt, tree.fileChanges(c.uuid).map((f) => `${f.action} ${f.path}`)])
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
  it('draws a local_shell_call as the tool call its output answers', () => {
    const codex = codexHome()
    const file = join(
      mkdtempSync(join(tmpdir(), 'rs-codex-shell-')),
      basename(rollout(codex.toolHome, 'f7bd'))
    )
    copyFileSync(rollout(codex.toolHome, 'f7bd'), file)
    const item = (payload: object) =>
      JSON.stringify({ timestamp: '2026-12-01T23:59:00.000Z', type: 'response_item', payload })
    const action = { type: 'exec', command: ['bash', '-lc', 'ls -la'], timeout_ms: 10000 }
    appendFileSync(
      file,
      [
        item({ type: 'local_shell_call', call_id: 'call_ls', status: 'completed', action }),
        item({ type: 'function_call_output', call_id: 'call_ls', output: 'notes.txt\n' }),
        item({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'listed' }]
        }),
        ''
      ].join('\n')
    )
    const { tree, problems } = readSessionFile(file)
    expect(problems).toEqual([])
    const blocks = tree.pathTo(tree.leafUuid ?? '').flatMap((r) => {
      const content = (r as { message?: { content?: unknown } }).message?.content
      return Array.isArray(content) ? (content as Record<string, unknown>[]) : []
    })
    expect(blocks).toContainEqual({
      type: 'tool_use',
      id: 'call_ls',
      name: 'local_shell',
      input: action
    })
    // Every result on the path answers a call before it: the history a continue sends is whole.
    const calls = new Set<string>()
    for (const block of blocks) {
      if (block.type === 'tool_use') calls.add(String(block.id))
      if (block.type === 'tool_result') expect(calls).toContain(block.tool_use_id)
    }
    expect(calls).toContain('call_ls')
  })

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

  it("names the files each turn's apply_patch changed, as Codex wrote the call, with no content", () => {
    const codex = codexHome('workspace-after', 'codex-patches')
    const day = join(codex.toolHome, 'sessions', '2026', '12', '03')
    const file = join(day, readdirSync(day)[0] ?? '')
    expect(changesPerTurn(file)).toEqual([
      // A custom_tool_call; the absolute path inside the workspace made relative to it.
      [
        'add the files',
        ['added keep.txt', 'added old/name.txt', 'added gone.txt', 'added abs/inside.txt']
      ],
      [
        'move, delete and update',
        [
          'moved-away old/name.txt',
          'moved-here new/name.txt',
          'deleted gone.txt',
          'updated keep.txt'
        ]
      ],
      // exec_command running `apply_patch <<'EOF'`, which Codex applied as a patch.
      ['patch through the shell', ['added shell.txt']],
      // Patches Codex refused ("apply_patch verification failed"), a shell call it does not
      // offer ("unsupported call: shell"): nothing written, nothing named.
      ['refused patches', []],
      ['an old shell call', []],
      // A file a plain command writes is named by nothing Codex keeps.
      ['a plain command', []]
    ])
    // What the patches named is what the real run left: the files a last change added, updated
    // or moved here are there, those it deleted or moved away are not.
    const { tree } = readSessionFile(file)
    const changes = tree.checkpoints().flatMap((c) => tree.fileChanges(c.uuid))
    const last = new Map(changes.map((change) => [change.path, change.action]))
    expect(
      [...last].filter(([path]) => existsSync(join(codex.workspace, path))).map(([p]) => p)
    ).toEqual([...last].filter(([, a]) => a !== 'deleted' && a !== 'moved-away').map(([p]) => p))
    // Codex keeps no copy: neither side is known, and neither says "no file".
    for (const change of changes) {
      expect(change).toMatchObject({
        before: null,
        after: null,
        beforeUnknown: true,
        afterUnknown: true,
        source: 'codex'
      })
    }
    // Codex's own 0.171.0 run of ../codex: "patch the notes" (in the exec file and in the fork's
    // history), "second tui prompt".
    const first = codexHome()
    expect(changesPerTurn(rollout(first.toolHome, 'f7bd'))).toEqual([
      ['create the notes', []],
      ['patch the notes', ['updated notes.txt', 'added extra.txt']]
    ])
    expect(changesPerTurn(rollout(first.toolHome, '01db'))[1]).toEqual([
      'patch the notes',
      ['updated notes.txt', 'added extra.txt']
    ])
    expect(changesPerTurn(rollout(first.toolHome, '1c81-7873-83fe-941408e6ba35.jsonl'))).toEqual([
      ['first tui prompt', []],
      ['second tui prompt', ['updated tui.txt']]
    ])
  })

  it('inspect shows the files each turn changed; a restore of them is refused and touches nothing', async () => {
    const codex = codexHome('workspace-after', 'codex-patches')
    const day = join(codex.toolHome, 'sessions', '2026', '12', '03')
    const file = join(day, readdirSync(day)[0] ?? '')
    const json = await runCli(['inspect', file, '--json'], { env: codex.env })
    expect(json.code).toBe(0)
    const checkpoints = (JSON.parse(json.stdout) as { checkpoints: { filesChanged: number }[] })
      .checkpoints
    expect(checkpoints.map((c) => c.filesChanged)).toEqual([4, 4, 1, 0, 0, 0])
    const text = await runCli(['inspect', file], { env: codex.env })
    expect(text.stdout).toContain('move, delete and update (4 files changed)')
    const before = fingerprint(codex.workspace)
    for (const to of ['1', '2']) {
      const run = await runCli(['rewind', file, '--to', to], { env: codex.env })
      expect(run.code).not.toBe(0)
      expect(run.stderr).toContain('Codex CLI keeps no backups of the files it changes')
    }
    expect(fingerprint(codex.workspace)).toEqual(before)
  })
})
