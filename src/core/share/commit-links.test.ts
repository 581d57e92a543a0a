// Issue 32, item 4: a commit made during a turn is shown on that turn's node, and a node of a
// pulled session links to the commit. The agent's Bash commits with real git; HEAD before and
// after the turn gives the commits, recorded as a commit_link record of the turn.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../session/store'
import type { AppInfo, NodeDetail, SessionGraph } from '../../shared/views'
import { git, twoMachines } from '../../../test/support/git-machines'
import { studioHarnesses } from '../../../test/support/studio-harness'

const { harness } = studioHarnesses()

/** A scripted model whose "commit" turn commits a new file with Bash, and whose "look" turn only reads. */
function scriptedModel(dir: string): string {
  const file = join(dir, 'commit-model.json')
  writeFileSync(
    file,
    JSON.stringify({
      rules: [
        {
          match: 'commit',
          responses: [
            [
              {
                type: 'tool_use',
                name: 'Bash',
                input: {
                  command:
                    "printf 'x = 1\\n' > feature.py && git add feature.py && git commit -q -m 'Add feature.py' && git commit -q --allow-empty -m 'Second commit'"
                }
              }
            ],
            [{ type: 'text', text: 'Committed.' }]
          ]
        },
        { match: 'look', responses: [[{ type: 'text', text: 'Looked.' }]] }
      ]
    })
  )
  return `scripted:${file}`
}

describe('commits made during a turn', () => {
  it('are recorded on the turn (HEAD before and after), shown on its node, and linked from a pulled copy', async () => {
    const { a, b, base } = twoMachines()
    const alice = await harness(undefined, 'bypassPermissions', scriptedModel(base), a)
    const headBefore = git(a.workspace, 'rev-parse', 'HEAD').trim()
    await alice.sendAndWait('please commit a feature')
    await alice.sendAndWait('now look around')
    const headAfter = git(a.workspace, 'rev-parse', 'HEAD').trim()
    expect(headAfter).not.toBe(headBefore)
    const { sessionFile, sessionId } = await alice.value<AppInfo>('app:info')
    // The record is written once the turn has ended (two git processes): read from the log.
    const links = () => {
      const store = SessionStore.open(sessionFile, { readOnly: true })
      const found = store
        .tree()
        .records.filter((r) => (r as { type?: string }).type === 'commit_link')
      store.close()
      return found
    }
    await expect.poll(() => links().length).toBe(1)
    expect(links()[0]).toMatchObject({
      headBefore,
      headAfter,
      branch: 'main',
      more: 0,
      commits: [
        { oid: headAfter, subject: 'Second commit', author: 'Alice <alice@example.com>' },
        { subject: 'Add feature.py' }
      ]
    })
    const graph = await alice.value<SessionGraph>('session:graph')
    const [committing, looking] = graph.nodes.filter((n) => n.kind === 'turn')
    const detail = await alice.value<NodeDetail>('session:node', { nodeId: committing?.id })
    expect(detail.commits?.map((c) => [c.subject, c.here])).toEqual([
      ['Second commit', true],
      ['Add feature.py', true]
    ])
    expect(
      (await alice.value<NodeDetail>('session:node', { nodeId: looking?.id })).commits
    ).toEqual([])

    // Shared, then pulled on B, which has not fetched those commits: listed, not here.
    await alice.value('share:push', { scope: 'all' })
    const bob = await harness(undefined, undefined, undefined, b)
    await bob.value<AppInfo>('share:open', { sessionId })
    const bobTurn = (await bob.value<SessionGraph>('session:graph')).nodes.find(
      (n) => n.kind === 'turn'
    )
    const pulled = await bob.value<NodeDetail>('session:node', { nodeId: bobTurn?.id })
    expect(pulled.commits?.map((c) => [c.oid, c.here])).toEqual([
      [headAfter, false],
      [expect.any(String), false]
    ])
    // Once B has the code, the node links to commits it holds.
    git(a.workspace, 'push', '-q', 'origin', 'main')
    git(b.workspace, 'fetch', '-q', 'origin')
    const fetched = await bob.value<NodeDetail>('session:node', { nodeId: bobTurn?.id })
    expect(fetched.commits?.every((c) => c.here)).toBe(true)
  }, 90_000)

  it('records nothing, and costs no error, in a workspace that is no git repository', async () => {
    const base = mkdtempSync(join(tmpdir(), 'rs-nogit-'))
    const workspace = join(base, 'ws')
    mkdirSync(workspace)
    writeFileSync(join(workspace, 'config.py'), 'DEBUG = True\n')
    const h = await harness(undefined, 'bypassPermissions', scriptedModel(base), {
      workspace,
      home: join(base, 'home')
    })
    await h.sendAndWait('now look around')
    const { sessionFile, notices } = await h.value<AppInfo>('app:info')
    expect(notices.join('\n')).not.toMatch(/git/i)
    await h.studio.close()
    const store = SessionStore.open(sessionFile, { readOnly: true })
    expect(store.tree().records.some((r) => (r as { type?: string }).type === 'commit_link')).toBe(
      false
    )
    store.close()
  })
})
