// Sharing a session tree through git between two machines, with real git: a bare repository as
// the remote, two clones each with a data home of its own. Alice works with the agent on A and
// shares the session; Bob lists it on B, opens it read-only (every view works), and continues
// from a node of it with that node's files restored from the shared backups, then undoes that.
// Neither machine's branches, index, HEAD or working tree move unless a restore was asked for.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SharePreview, ShareResult, SharedList } from '../../src/shared/share-views'
import type {
  AppInfo,
  CompareView,
  ExportedFile,
  RewindPreview,
  SearchEntry,
  SessionGraph,
  TranscriptEntry
} from '../../src/shared/views'
import { runCli } from '../support/cli'
import { git, twoMachines, userGitState } from '../support/git-machines'
import { studioHarnesses } from '../support/studio-harness'

const { harness } = studioHarnesses()

describe('a session shared through git', () => {
  it('is pushed from one clone, listed, pulled and continued on the other, and nothing of the user’s git moves', async () => {
    const { a, b, remote } = twoMachines()
    // Machine A: two turns of the demo's scripted agent.
    const alice = await harness(undefined, undefined, undefined, a)
    await alice.sendAndWait('add TIMEOUT = 30 to config.py')
    const afterTurn1 = readFileSync(join(a.workspace, 'config.py'))
    await alice.sendAndWait('also remove DEBUG and create utils.py')
    const aliceInfo = await alice.value<AppInfo>('app:info')
    const aliceGit = userGitState(a.workspace)

    const preview = await alice.value<SharePreview>('share:preview', { scope: 'all' })
    expect(preview).toMatchObject({
      sessionId: aliceInfo.sessionId,
      remote: 'origin',
      turns: 2,
      files: 2,
      sharedBefore: null
    })
    expect(preview.backups).toBeGreaterThanOrEqual(3)
    // A preview writes nothing: no ref, no object named by one.
    expect(git(a.workspace, 'for-each-ref', 'refs/rewind-studio/')).toBe('')

    const pushed = await alice.value<ShareResult>('share:push', { scope: 'all' })
    expect(pushed.sent.bytes).toBeGreaterThan(0)
    expect(
      git(remote, 'for-each-ref', '--format=%(refname)', 'refs/rewind-studio/').trim().split('\n')
    ).toEqual([
      `refs/rewind-studio/sessions/${aliceInfo.sessionId}`,
      `refs/rewind-studio/summaries/${aliceInfo.sessionId}`
    ])
    expect(userGitState(a.workspace)).toEqual(aliceGit)
    // Pushing again with nothing new sends only the new push's commits and share.json.
    const again = await alice.value<ShareResult>('share:push', { scope: 'all' })
    expect(again.newObjects).toBe(1)
    expect(again.sent.objects).toBeLessThan(pushed.sent.objects)

    // Machine B: the list, from the summaries alone.
    const env = { REWIND_STUDIO_HOME: b.home }
    const listed = await runCli(['share', 'list', '--cwd', b.workspace, '--json'], { env })
    expect(listed.stderr).toBe('')
    const list = JSON.parse(listed.stdout) as SharedList
    expect(list.sessions).toMatchObject([
      {
        sessionId: aliceInfo.sessionId,
        sharedBy: 'Alice <alice@example.com>',
        turns: 2,
        title: 'add TIMEOUT = 30 to config.py',
        pulled: false
      }
    ])
    const bobGit = userGitState(b.workspace)
    const bobFiles = readFileSync(join(b.workspace, 'config.py'))

    // Opened read-only in the app on B: who shared it, every view.
    const bob = await harness(undefined, undefined, undefined, b)
    const opened = await bob.value<AppInfo>('share:open', { sessionId: aliceInfo.sessionId })
    expect(opened.shared).toMatchObject({
      sessionId: aliceInfo.sessionId,
      sharedBy: 'Alice <alice@example.com>',
      remote: 'origin',
      codeHere: true
    })
    expect(opened.readOnlyReason).toMatch(/pulled from a git remote/)
    expect(opened.notices.join('\n')).toMatch(
      /Shared by Alice <alice@example.com> on .* on main at commit [0-9a-f]{12}/
    )
    const graph = await bob.value<SessionGraph>('session:graph')
    const turns = graph.nodes.filter((n) => n.kind === 'turn')
    // This machine's files were never at a node of Alice's session.
    expect(graph.filesAt).toMatchObject({ nodeId: null, changedSince: false })
    expect(turns.map((t) => t.title)).toEqual([
      'add TIMEOUT = 30 to config.py',
      'also remove DEBUG and create utils.py'
    ])
    const transcript = await bob.value<TranscriptEntry[]>('session:transcript', { leafUuid: null })
    expect(transcript.length).toBeGreaterThan(4)
    const search = await bob.value<SearchEntry[]>('session:searchIndex')
    expect(JSON.stringify(search)).toContain('utils.py')
    const compare = await bob.value<CompareView>('compare', { a: turns[0]?.id, b: turns[1]?.id })
    expect(compare.files.map((f) => [f.path, f.change])).toEqual([
      ['config.py', 'modified'],
      ['utils.py', 'added']
    ])
    expect(compare.files.every((f) => f.note === null)).toBe(true)
    const exported = await bob.value<ExportedFile>('session:export', {
      format: 'md',
      scope: 'branch'
    })
    expect(exported.content).toContain('also remove DEBUG')
    // Read-only: nothing that writes the session runs.
    expect(await bob.call('session:label', { nodeId: turns[0]?.id, label: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'read_only' }
    })
    expect(await bob.call('agent:send', { prompt: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'read_only' }
    })
    expect(await bob.call('share:push', { scope: 'all' })).toMatchObject({
      ok: false,
      error: { code: 'read_only' }
    })
    // Pulled and shown: the workspace and the user's git as they were.
    expect(readFileSync(join(b.workspace, 'config.py'))).toEqual(bobFiles)
    expect(userGitState(b.workspace)).toEqual(bobGit)

    // Continue from the first turn: a session of Bob's own, the files as that turn left them.
    const turn1 = turns[0]?.id ?? ''
    const restore = await bob.value<RewindPreview>('session:forkPreview', { nodeId: turn1 })
    expect(restore.restore.map((f) => f.path)).toEqual(['config.py'])
    expect(restore.restore[0]?.diff).toContain('+TIMEOUT = 30')
    const forked = await bob.value<AppInfo>('session:fork', { nodeId: turn1, restoreFiles: true })
    expect(forked.readOnlyReason).toBeNull()
    expect(forked.shared ?? null).toBeNull()
    expect(forked.sessionFile.startsWith(join(b.home, 'sessions'))).toBe(true)
    expect(readFileSync(join(b.workspace, 'config.py'))).toEqual(afterTurn1)
    // Undone as any restore: the file as it was, byte for byte.
    await bob.value('timeline:undo')
    expect(readFileSync(join(b.workspace, 'config.py'))).toEqual(bobFiles)
    expect(userGitState(b.workspace)).toEqual(bobGit)
    // The pull wrote only our own refs on B.
    expect(
      git(b.workspace, 'for-each-ref', '--format=%(refname)', 'refs/rewind-studio/')
        .trim()
        .split('\n')
    ).toEqual([
      `refs/rewind-studio/remotes/origin/sessions/${aliceInfo.sessionId}`,
      `refs/rewind-studio/remotes/origin/summaries/${aliceInfo.sessionId}`
    ])
    // The remote gone (offline, moved): the copy pulled before still opens, saying so.
    git(b.workspace, 'remote', 'set-url', 'origin', join(remote, '..', 'gone.git'))
    const offline = await bob.value<AppInfo>('share:open', { sessionId: aliceInfo.sessionId })
    expect(offline.shared?.sessionId).toBe(aliceInfo.sessionId)
    expect(offline.notices.join('\n')).toContain('Could not bring it up to date')
    expect(offline.notices.join('\n')).toContain('this is the copy pulled before')
  }, 120_000)
})

describe('Share… on a session with no prompt yet', () => {
  it('says there is nothing to share yet, and sends nothing', async () => {
    const { a, remote } = twoMachines()
    const alice = await harness(undefined, undefined, undefined, a)
    await alice.value('session:new')
    for (const channel of ['share:preview', 'share:push']) {
      const reply = await alice.call(channel, { scope: 'all' })
      expect(reply.ok, channel).toBe(false)
      if (reply.ok) continue
      expect(reply.error).toEqual({
        code: 'conflict',
        message: 'Nothing to share yet: this session has no prompt. Send one, then share it.'
      })
    }
    expect(git(remote, 'for-each-ref', 'refs/rewind-studio/')).toBe('')
  })
})
