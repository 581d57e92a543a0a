// `share push` with real git: what is sent (masked records and backups, one branch or the whole
// tree), what a second push sends (only what is new), what a dry run writes (nothing), and what
// a pull restores from a masked backup (the masked text, byte for byte, under its own hash).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pullSession } from '../../src/core/share/pull'
import { previewPush, pushSession } from '../../src/core/share/push'
import type { ShareResult } from '../../src/shared/share-views'
import { runCli } from '../support/cli'
import { git, twoMachines, userGitState, writeTurns } from '../support/git-machines'

const KEY = 'sk-ant-api03-' + 'Qw7'.repeat(30)

/** Every blob the remote holds, as text: what left the machine. */
function remoteBlobs(remote: string): string {
  const objects = git(
    remote,
    'cat-file',
    '--batch-all-objects',
    '--batch-check=%(objectname) %(objecttype)'
  )
  return objects
    .split('\n')
    .filter((line) => line.endsWith(' blob'))
    .map((line) => git(remote, 'cat-file', 'blob', line.split(' ')[0] ?? ''))
    .join('\n')
}

describe('share push', () => {
  it('masks keys in the records and in text backups, lists each piece, keeps them locally, and a pull restores the masked text', async () => {
    const { a, b, remote } = twoMachines()
    const session = writeTurns({
      home: a.home,
      cwd: a.workspace,
      turns: 2,
      filesPerTurn: 1,
      files: 1,
      content: (_path, turn) =>
        turn === 1 ? `API_KEY=${KEY}\nDEBUG=1\n` : `API_KEY=${KEY}\nDEBUG=0\n`,
      answer: (turn) => `Turn ${turn}: I used ${KEY} to call the API.`
    })
    const request = {
      home: a.home,
      file: session.file,
      workspace: a.workspace,
      scope: { kind: 'all' as const }
    }
    const preview = await previewPush(request)
    expect(preview.masked).toBe(4)
    expect(preview.redactions.map((r) => r.where).sort()).toEqual([
      'backup of src/file-0000.py',
      'backup of src/file-0000.py',
      'log line 4 (assistant)',
      'log line 7 (assistant)'
    ])
    expect(preview.redactions[0]?.shown).toBe(`sk-ant-…(${KEY.length} chars, masked)`)
    expect(JSON.stringify(preview)).not.toContain(KEY)
    await pushSession(request)
    const sent = remoteBlobs(remote)
    expect(sent).not.toContain(KEY)
    expect(sent).toContain(`API_KEY=sk-ant-…(${KEY.length} chars, masked)\nDEBUG=1\n`)
    // The local log keeps what was said.
    expect(readFileSync(session.file, 'utf8')).toContain(KEY)

    // B restores the masked file, named by the masked content's hash.
    const pulled = await pullSession({
      home: b.home,
      workspace: b.workspace,
      sessionId: session.sessionId
    })
    expect(pulled.problems).toEqual([])
    const fork = await runCli(['fork', pulled.file, '--at', '2', '--restore', '--json'], {
      env: { REWIND_STUDIO_HOME: b.home }
    })
    expect(fork.code, fork.stderr).toBe(0)
    expect(readFileSync(join(b.workspace, 'src/file-0000.py'), 'utf8')).toBe(
      `API_KEY=sk-ant-…(${KEY.length} chars, masked)\nDEBUG=0\n`
    )
  })

  it('sends only what is new the second time: a session 10 turns longer costs a small part of the first push', async () => {
    const { a } = twoMachines()
    const first = writeTurns({
      home: a.home,
      cwd: a.workspace,
      turns: 60,
      filesPerTurn: 4,
      files: 200
    })
    const request = {
      home: a.home,
      file: first.file,
      workspace: a.workspace,
      scope: { kind: 'all' as const }
    }
    const pushed = await pushSession(request)
    expect(pushed.sharedBefore).toBeNull()
    writeTurns({
      home: a.home,
      cwd: a.workspace,
      turns: 10,
      filesPerTurn: 4,
      files: 200,
      resume: { file: first.file, from: first }
    })
    const preview = await previewPush(request)
    // 40 new backups, the log's last chunk or two, share.json.
    expect(preview.newObjects).toBeGreaterThanOrEqual(41)
    expect(preview.newObjects).toBeLessThanOrEqual(44)
    const again = await pushSession(request)
    expect(again.sharedBefore).toBe(pushed.commit)
    expect(again.sent.bytes).toBeGreaterThan(0)
    expect(again.sent.bytes).toBeLessThan(pushed.sent.bytes / 4)
    expect(git(a.workspace, 'rev-parse', `${again.commit}^`).trim()).toBe(pushed.commit)
  }, 60_000)

  it('shares one branch: its path, its turns’ changes and backups, nothing of the others', async () => {
    const { a, remote } = twoMachines()
    const session = writeTurns({
      home: a.home,
      cwd: a.workspace,
      turns: 3,
      filesPerTurn: 1,
      files: 10
    })
    const env = { REWIND_STUDIO_HOME: a.home }
    const run = await runCli(['share', 'push', session.file, '--branch', '2', '--json'], { env })
    expect(run.code, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout) as ShareResult
    // The branch through turn 2 is the active one: all three turns (it is one chain).
    expect(result).toMatchObject({ scope: 'branch', turns: 3, backups: 3 })
    const log = git(remote, 'show', `${result.commit}:log/00000000.jsonl`)
    expect(log.split('\n').filter((l) => l.includes('"file_change"'))).toHaveLength(3)
  })

  it('writes nothing on a dry run, and leaves the user’s branches, index, HEAD and files as they were', async () => {
    const { a, remote } = twoMachines()
    const session = writeTurns({
      home: a.home,
      cwd: a.workspace,
      turns: 2,
      filesPerTurn: 2,
      files: 4
    })
    const before = userGitState(a.workspace)
    const objects = git(a.workspace, 'count-objects', '-v')
    const env = { REWIND_STUDIO_HOME: a.home }
    const dry = await runCli(['share', 'push', session.file, '--dry-run'], { env })
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toMatch(/Would share session .* 2 turns, 4 files, 4 backups/)
    expect(git(a.workspace, 'count-objects', '-v')).toBe(objects)
    expect(git(a.workspace, 'for-each-ref', 'refs/rewind-studio/')).toBe('')
    expect(git(remote, 'for-each-ref')).not.toContain('rewind-studio')
    const push = await runCli(['share', 'push', session.file], { env })
    expect(push.code, push.stderr).toBe(0)
    expect(push.stdout).toMatch(/Sent \d+ objects, [\d,.]+ (bytes|KB)/)
    expect(userGitState(a.workspace)).toEqual(before)
    // Only the session's two refs: the commits' temporary refs are gone.
    expect(
      git(a.workspace, 'for-each-ref', '--format=%(refname)', 'refs/rewind-studio/')
        .trim()
        .split('\n')
    ).toEqual([
      `refs/rewind-studio/sessions/${session.sessionId}`,
      `refs/rewind-studio/summaries/${session.sessionId}`
    ])
  })

  it('is refused as a conflict where the remote holds a share this one does not follow, and our refs go back', async () => {
    const { a, remote } = twoMachines()
    const session = writeTurns({
      home: a.home,
      cwd: a.workspace,
      turns: 1,
      filesPerTurn: 1,
      files: 1
    })
    const request = {
      home: a.home,
      file: session.file,
      workspace: a.workspace,
      scope: { kind: 'all' as const }
    }
    const first = await pushSession(request)
    // This clone forgets its share (a new clone would too): its next push starts a new history.
    git(a.workspace, 'update-ref', '-d', `refs/rewind-studio/sessions/${session.sessionId}`)
    git(a.workspace, 'update-ref', '-d', `refs/rewind-studio/summaries/${session.sessionId}`)
    await expect(pushSession(request)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(
        'holds a share of this session that this one does not follow'
      )
    })
    expect(git(a.workspace, 'for-each-ref', 'refs/rewind-studio/')).toBe('')
    expect(
      git(remote, 'rev-parse', `refs/rewind-studio/sessions/${session.sessionId}`).trim()
    ).toBe(first.commit)
  })

  it('is refused with a clear line where it cannot go: no repository, no remote, a file from elsewhere', async () => {
    const { a } = twoMachines()
    const session = writeTurns({
      home: a.home,
      cwd: a.workspace,
      turns: 1,
      filesPerTurn: 1,
      files: 1
    })
    const env = { REWIND_STUDIO_HOME: a.home }
    git(a.workspace, 'remote', 'remove', 'origin')
    const noRemote = await runCli(['share', 'push', session.file], { env })
    expect(noRemote.code).toBe(1)
    expect(noRemote.stderr).toContain('This repository has no remote to share through')
    const badRemote = await runCli(
      ['share', 'push', session.file, '--remote', '--upload-pack=touch /tmp/x'],
      { env }
    )
    expect(badRemote.code).toBe(1)
    expect(badRemote.stderr).toContain('No remote "--upload-pack=touch /tmp/x"')
    const elsewhere = await runCli(['share', 'push', session.file], {
      env: { REWIND_STUDIO_HOME: join(a.home, 'other') }
    })
    expect(elsewhere.code).toBe(2)
    expect(elsewhere.stderr).toContain('give --cwd DIR')
    // A file that is no session of ours: one line, no stack trace, the file unchanged.
    const headerless = join(a.workspace, 'not-a-session.jsonl')
    writeFileSync(headerless, 'x')
    const notOurs = await runCli(['share', 'push', headerless], { env })
    expect(notOurs.code).toBe(1)
    expect(notOurs.stderr.trim()).toMatch(
      /^rewind-studio: Cannot open .*not-a-session\.jsonl: line 1 is no session header: .*Nothing was changed\.$/
    )
    expect(readFileSync(headerless, 'utf8')).toBe('x')
  })
})
