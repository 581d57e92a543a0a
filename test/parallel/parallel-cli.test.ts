// Issue 30 through the real rewind-studio command, on a real folder and on a real git repository:
// `parallel` starts two runs from turn 1 of a two-turn session, `runs` lists them, `adopt` brings
// one in (undone by `rewind --undo`), `runs --discard` removes the other's workspace.
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isPrompt, promptText } from '../../src/core/session/tree'
import { byPrompt, gitIn, parseRuns, readTree, snapshot, startingPoint } from './fixture'

describe.each([
  ['a folder', false],
  ['a git repository', true]
])('parallel runs in %s', (_name, git) => {
  it('runs each attempt in its own workspace from the node, leaves the user’s alone, and makes them branches', async () => {
    const s = await startingPoint(git)
    const before = snapshot(s.workspace)
    const gitBefore = git
      ? {
          status: gitIn(s.workspace, 'status', '--porcelain'),
          branches: gitIn(s.workspace, 'branch', '--list'),
          head: gitIn(s.workspace, 'rev-parse', 'HEAD')
        }
      : null
    // After git's own status above, which may refresh the index: from here no byte of the
    // user's .git may change.
    const gitDirBefore = git ? snapshot(s.workspace, { gitDir: true }) : null
    const treeBefore = readTree(s.file)
    const leafBefore = treeBefore.leafUuid

    const started = await s.cli(
      'parallel',
      s.file,
      '--at',
      '1',
      '--prompt',
      'try red',
      '--prompt',
      'try blue',
      '--check',
      'cat notes.md; test -f red.txt',
      '--model',
      `scripted:${s.script}`,
      '--json'
    )
    const runs = parseRuns(started)
    if (git) expect(snapshot(s.workspace, { gitDir: true })).toEqual(gitDirBefore)
    const red = byPrompt(runs, 'try red')
    const blue = byPrompt(runs, 'try blue')
    expect(runs.map((r) => r.state)).toEqual(['done', 'done'])
    // Red edited notes.md as turn 1 left it (v1): the start node's files, not the user's (v2).
    expect(red.files).toEqual(['notes.md', 'red.txt'])
    expect([red.linesAdded, red.linesRemoved]).toEqual([2, 0])
    expect(red.check).toEqual({
      command: 'cat notes.md; test -f red.txt',
      exitCode: 0,
      tail: 'v1\nred'
    })
    expect(blue.files).toEqual(['blue.txt'])
    expect(blue.check?.exitCode).toBe(1)
    expect(readFileSync(join(red.workspace as string, 'notes.md'), 'utf8')).toBe('v1\nred\n')
    expect(existsSync(join(red.workspace as string, 'blue.txt'))).toBe(false)
    // What the user had besides the session's files came along.
    expect(readFileSync(join(blue.workspace as string, 'keep.txt'), 'utf8')).toBe(
      readFileSync(join(s.workspace, 'keep.txt'), 'utf8')
    )

    // The user's workspace is as it was: every file, its content and its mtime.
    expect(snapshot(s.workspace)).toEqual(before)
    if (git) {
      expect(gitIn(s.workspace, 'status', '--porcelain')).toBe(gitBefore?.status)
      expect(gitIn(s.workspace, 'branch', '--list')).toBe(gitBefore?.branches)
      expect(gitIn(s.workspace, 'rev-parse', 'HEAD')).toBe(gitBefore?.head)
      // A repository of the run's own at the user's HEAD (its objects borrowed), which git
      // in the run works with; what git ignores is not copied.
      expect(lstatSync(join(red.workspace as string, '.git')).isDirectory()).toBe(true)
      expect(gitIn(red.workspace as string, 'rev-parse', 'HEAD')).toBe(gitBefore?.head)
      expect(gitIn(red.workspace as string, 'status', '--porcelain')).toBe(
        ' M keep.txt\n?? draft.txt\n?? notes.md\n?? red.txt\n'
      )
      expect(gitIn(s.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
      expect(readFileSync(join(red.workspace as string, 'draft.txt'), 'utf8')).toBe(
        'not committed\n'
      )
      expect(existsSync(join(red.workspace as string, 'ignored'))).toBe(false)
    } else {
      // A copy, never a hard link to the user's file.
      const copied = statSync(join(red.workspace as string, 'keep.txt'))
      expect(copied.nlink).toBe(1)
      expect(copied.ino).not.toBe(statSync(join(s.workspace, 'keep.txt')).ino)
    }

    // Two branches of the same tree at the end of turn 1; the conversation did not move.
    const tree = readTree(s.file)
    expect(tree.leafUuid).toBe(leafBefore)
    const turn1End = treeBefore.get(treeBefore.checkpoints()[1]?.uuid ?? '')?.parentUuid
    const prompts = tree
      .children(turn1End as string)
      .flatMap((n) => (n.type === 'user' && isPrompt(n) ? [n] : []))
    expect(prompts.map((p) => promptText(p)).sort()).toEqual([
      'second notes',
      'try blue',
      'try red'
    ])
    const redPrompt = prompts.find((p) => promptText(p) === 'try red')

    // The table again, from another process.
    const listed = parseRuns(await s.cli('runs', s.file, '--json'))
    expect(listed.map((r) => [r.id, r.state]).sort()).toEqual(
      [
        [red.id, 'done'],
        [blue.id, 'done']
      ].sort()
    )

    // Adopt red: its files come in, blue's do not; its workspace goes.
    const preview = await s.cli('adopt', s.file, '--run', red.id, '--dry-run', '--json')
    expect(preview.code, preview.stderr).toBe(0)
    expect(JSON.parse(preview.stdout)).toMatchObject({
      restore: ['notes.md'],
      recreate: ['red.txt']
    })
    expect(snapshot(s.workspace)).toEqual(before)
    // A prefix names a run (runs started together share the time part of their ids: 32 characters
    // reach into the random part).
    const adopted = await s.cli('adopt', s.file, '--run', red.id.slice(0, 32))
    expect(adopted.code, adopted.stderr).toBe(0)
    expect(readFileSync(join(s.workspace, 'notes.md'), 'utf8')).toBe('v1\nred\n')
    expect(readFileSync(join(s.workspace, 'red.txt'), 'utf8')).toBe('red\n')
    expect(existsSync(join(s.workspace, 'blue.txt'))).toBe(false)
    expect(readFileSync(join(s.workspace, 'keep.txt'), 'utf8')).toBe(
      git ? 'the user keeps this, edited\n' : 'the user keeps this\n'
    )
    expect(existsSync(red.workspace as string)).toBe(false)
    expect(existsSync(blue.workspace as string)).toBe(true)
    // The conversation goes on at red's end.
    const afterAdopt = readTree(s.file)
    expect(afterAdopt.pathTo(afterAdopt.leafUuid).map((n) => n.uuid)).toContain(redPrompt?.uuid)

    // Undo on the timeline: the files and the conversation back.
    const undone = await s.cli('rewind', s.file, '--undo')
    expect(undone.code, undone.stderr).toBe(0)
    expect(readFileSync(join(s.workspace, 'notes.md'), 'utf8')).toBe('v2\n')
    expect(existsSync(join(s.workspace, 'red.txt'))).toBe(false)
    expect(readTree(s.file).leafUuid).toBe(leafBefore)
    const afterUndo = snapshot(s.workspace)

    // Blue never touched notes.md: adopting it gives notes.md as blue's workspace had it, turn
    // 1's v1, not turn 2's v2 (a run's turn starts from the node it ran from).
    const bluePreview = await s.cli('adopt', s.file, '--run', blue.id, '--dry-run', '--json')
    expect(bluePreview.code, bluePreview.stderr).toBe(0)
    expect(JSON.parse(bluePreview.stdout)).toMatchObject({
      restore: ['notes.md'],
      recreate: ['blue.txt']
    })

    // Discard blue: its workspace goes, nothing of the user's with it.
    const discarded = await s.cli('runs', s.file, '--discard', blue.id)
    expect(discarded.code, discarded.stderr).toBe(0)
    expect(existsSync(blue.workspace as string)).toBe(false)
    expect(snapshot(s.workspace)).toEqual(afterUndo)
    if (git) {
      expect(gitIn(s.workspace, 'for-each-ref', 'refs/rewind-studio/')).toBe('')
      expect(gitIn(s.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
      expect(gitIn(s.workspace, 'branch', '--list')).toBe(gitBefore?.branches)
    }
  })
})

describe('a run starts from what the node’s conversation knows', () => {
  it('edits a file an earlier turn wrote without reading it again', async () => {
    const s = await startingPoint(false)
    const [green] = parseRuns(
      await s.cli(
        'parallel',
        s.file,
        '--at',
        '1',
        '--prompt',
        'try green',
        '--model',
        `scripted:${s.script}`,
        '--json'
      )
    )
    expect(green?.state).toBe('done')
    expect(green?.files).toEqual(['notes.md'])
    expect(readFileSync(join(green?.workspace as string, 'notes.md'), 'utf8')).toBe('v1\ngreen\n')
  })
})

describe('parallel refuses what it cannot do, changing nothing', () => {
  it('names a bad --runs, two prompts with --runs, and a node that is not there', async () => {
    const s = await startingPoint(false)
    const before = snapshot(s.workspace)
    const size = statSync(s.file).size
    const nine = await s.cli('parallel', s.file, '--prompt', 'x', '--runs', '9')
    expect(nine.code).toBe(2)
    expect(nine.stderr).toContain('--runs takes a number from 1 to 8')
    const both = await s.cli('parallel', s.file, '--prompt', 'a', '--prompt', 'b', '--runs', '2')
    expect(both.code).toBe(2)
    const missing = await s.cli(
      'parallel',
      s.file,
      '--at',
      '7',
      '--prompt',
      'x',
      '--model',
      `scripted:${s.script}`
    )
    expect(missing.code).toBe(1)
    const noRun = await s.cli('adopt', s.file, '--run', 'nope')
    expect(noRun.code).toBe(1)
    expect(noRun.stderr).toContain('no run nope')
    expect(snapshot(s.workspace)).toEqual(before)
    expect(statSync(s.file).size).toBe(size)
    expect(existsSync(join(s.home, 'runs'))).toBe(false)
  })
})

describe('adopt --summarize', () => {
  it('summarizes the branch left and the other run onto the adopted run, undone by rewind --undo', async () => {
    const s = await startingPoint(false)
    const model = `scripted:${s.script}`
    const runs = parseRuns(
      await s.cli(
        'parallel',
        s.file,
        '--at',
        '1',
        '--prompt',
        'try red',
        '--prompt',
        'try blue',
        '--model',
        model,
        '--json'
      )
    )
    const red = byPrompt(runs, 'try red')
    const adopted = await s.cli('adopt', s.file, '--run', red.id, '--summarize', '--model', model)
    expect(adopted.code, adopted.stderr).toBe(0)
    expect(adopted.stderr).toContain('The branches left are summarized onto its end.')
    expect(readFileSync(join(s.workspace, 'notes.md'), 'utf8')).toBe('v1\nred\n')
    const tree = readTree(s.file)
    const path = tree.pathTo(tree.leafUuid)
    const summaries = path.filter((r) => r.type === 'branch_summary')
    // Turn 2 (the branch the conversation left) and the blue run.
    expect(summaries).toHaveLength(2)
    expect(path.some((r) => r.type === 'user' && isPrompt(r) && promptText(r) === 'try red')).toBe(
      true
    )
    const undo = await s.cli('rewind', s.file, '--undo')
    expect(undo.code, undo.stderr).toBe(0)
    expect(readFileSync(join(s.workspace, 'notes.md'), 'utf8')).toBe('v2\n')
    expect(existsSync(join(s.workspace, 'red.txt'))).toBe(false)
  })
})
