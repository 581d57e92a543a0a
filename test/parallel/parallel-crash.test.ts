// Issue 30, "bounded and safe": a kill -9 in the middle of a run leaves the user's workspace as
// it was and the run listed as stopped, gc removes its workspace (its own repository with it) and no
// user file; a kill -9 in the middle of an adopt is rolled back at the next open, and the adopt
// then goes through. The runs here talk to the loopback Messages API through the real SDK.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { RewindEngine } from '../../src/core/rewind/rewind-engine'
import { restoreSpaceAt } from '../../src/core/rewind/workspace-files'
import { sessionHistoryPaths } from '../../src/core/files/history-paths'
import { SessionStore } from '../../src/core/session/store'
import { loopbackEnv, startCli } from '../support/cli'
import { killWhenPaused } from '../support/kill-when-paused'
import {
  type MessagesRequestBody,
  type MessagesServer,
  type ServerStep,
  startMessagesServer
} from '../support/messages-server'
import { byPrompt, gitIn, parseRuns, snapshot, startingPoint } from './fixture'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

/** The prompt of a request's conversation (its last typed prompt) and whether a tool answered. */
function turnOf(body: MessagesRequestBody): { prompt: string; answered: boolean } {
  const last = body.messages.at(-1)
  const answered =
    Array.isArray(last?.content) &&
    (last.content as { type?: string }[]).some((b) => b.type === 'tool_result')
  const typed = [...body.messages]
    .reverse()
    .find(
      (m) =>
        m.role === 'user' &&
        (typeof m.content === 'string' || JSON.stringify(m.content).includes('"text"'))
    )
  return { prompt: JSON.stringify(typed?.content ?? ''), answered }
}

/** "quick": writes quick.txt, then ends; "hang": the answer starts and never ends. */
function answer(body: MessagesRequestBody): ServerStep {
  const { prompt, answered } = turnOf(body)
  if (answered) return { kind: 'message', content: [{ type: 'text', text: 'done' }] }
  if (prompt.includes('hang'))
    return { kind: 'stall', content: [{ type: 'text', text: 'thinking…' }] }
  return {
    kind: 'message',
    content: [
      {
        type: 'tool_use',
        id: `toolu_${Math.random().toString(36).slice(2)}`,
        name: 'Write',
        input: { file_path: 'quick.txt', content: 'quick\n' }
      }
    ]
  }
}

function manifests(home: string): { id: string; prompt: string; joined: boolean }[] {
  const root = join(home, 'runs')
  if (!existsSync(root)) return []
  return readdirSync(root).flatMap((folder) =>
    readdirSync(join(root, folder)).flatMap((id) => {
      const file = join(root, folder, id, 'run.json')
      return existsSync(file)
        ? [
            JSON.parse(readFileSync(file, 'utf8')) as {
              id: string
              prompt: string
              joined: boolean
            }
          ]
        : []
    })
  )
}

async function until(what: () => boolean, exited: Promise<unknown>): Promise<void> {
  let gone = false
  void exited.then(() => (gone = true))
  while (!what()) {
    if (gone) throw new Error('the command ended first')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.each([
  ['a folder', false],
  ['a git repository', true]
])('a kill -9 in %s', (_name, git) => {
  it('mid-run leaves the user’s workspace as it was, the run stopped, and gc its leftovers', async () => {
    server = await startMessagesServer([], { answer })
    const s = await startingPoint(git)
    const before = snapshot(s.workspace)
    const env = loopbackEnv(s.home, server.url)
    const live = startCli(
      [
        'parallel',
        s.file,
        '--at',
        '1',
        '--prompt',
        'quick',
        '--prompt',
        'hang',
        '--model',
        'claude-test',
        '--max-runs',
        '2'
      ],
      env
    )
    const srv = server
    await until(
      () =>
        manifests(s.home).some((m) => m.prompt === 'quick' && m.joined) &&
        srv.requests.some((r) => turnOf(r.body).prompt.includes('hang')),
      live.exited
    )
    live.child.kill('SIGKILL')
    expect((await live.exited).signal).toBe('SIGKILL')
    expect(snapshot(s.workspace)).toEqual(before)
    // The real SDK asked the loopback server, for the model named.
    expect(srv.requests[0]?.body.model).toBe('claude-test')

    const runs = parseRuns(await s.cli('runs', s.file, '--json'))
    const quick = byPrompt(runs, 'quick')
    const hang = byPrompt(runs, 'hang')
    expect([quick.state, hang.state]).toEqual(['done', 'stopped'])
    expect(hang.error).toContain('ended mid-run')
    expect(existsSync(hang.workspace as string)).toBe(true)

    const gc = await s.cli('gc')
    expect(gc.code, gc.stderr).toBe(0)
    expect(existsSync(hang.workspace as string)).toBe(false)
    expect(existsSync(quick.workspace as string)).toBe(true)
    expect(snapshot(s.workspace)).toEqual(before)
    if (git) {
      // Nothing of the runs was ever in the user's repository: no ref, no worktree entry.
      expect(gitIn(s.workspace, 'for-each-ref', 'refs/rewind-studio/')).toBe('')
      expect(gitIn(s.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
    }

    const adopted = await s.cli('adopt', s.file, '--run', quick.id)
    expect(adopted.code, adopted.stderr).toBe(0)
    expect(readFileSync(join(s.workspace, 'quick.txt'), 'utf8')).toBe('quick\n')
    for (const log of [
      s.file,
      ...readdirSync(join(s.home, 'runs'), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => join(s.home, 'runs', f))
    ]) {
      expect(readFileSync(log, 'utf8')).not.toContain('test-key')
    }
  })

  it('mid-adopt is rolled back at the next open, and the adopt then goes through', async () => {
    const s = await startingPoint(git)
    const ran = await s.cli(
      'parallel',
      s.file,
      '--at',
      '2',
      '--prompt',
      'many 300',
      '--model',
      `scripted:${s.script}`,
      '--permission-mode',
      'bypassPermissions',
      '--json'
    )
    const [run] = parseRuns(ran)
    expect(run?.files).toHaveLength(300)
    const before = snapshot(s.workspace)
    const out = await killWhenPaused(join(import.meta.dirname, 'adopt-crash-child.ts'), [
      s.file,
      s.home,
      run?.id as string,
      '120'
    ])
    expect(out).toContain('paused')
    // Half the files are in: the crash is real.
    expect(existsSync(join(s.workspace, 'many'))).toBe(true)

    const session = SessionStore.open(s.file)
    const engine = new RewindEngine({
      home: s.home,
      store: session,
      space: restoreSpaceAt(session.cwd, sessionHistoryPaths(s.home, s.file, session.cwd).root)
    })
    const notices = await engine.recover()
    session.close()
    expect(notices.join('\n')).toContain('rolled back')
    expect(snapshot(s.workspace)).toEqual(before)

    const adopted = await s.cli('adopt', s.file, '--run', run?.id as string)
    expect(adopted.code, adopted.stderr).toBe(0)
    for (const i of [1, 150, 300]) {
      expect(readFileSync(join(s.workspace, 'many', `f${i}.txt`), 'utf8')).toBe(`run ${i}\n`)
    }
  })
})
