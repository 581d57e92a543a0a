// Summaries and compaction through the command line: the terminal chat (/rewind … --summary,
// /summarize-from, /summarize-up-to, /compact, /context) and `cli summarize`, with the scripted
// model and with the real SDK against the loopback Messages server.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SessionStore } from '../src/core/session/store'
import type { TreeRecord } from '../src/core/session/tree'
import { SUMMARY_SYSTEM } from '../src/core/agent/summary/summary-request'
import {
  chatIn,
  loopbackChat,
  loopbackEnv,
  repoRoot,
  runCli,
  seedWorkspace,
  startCli
} from './support/cli'
import {
  type MessagesServer,
  startMessagesServer,
  textReply as text
} from './support/messages-server'

const script = `scripted:${join(repoRoot, 'test/fixtures/seed-walkthrough.json')}`
const TURNS = '给 config.py 加一个 TIMEOUT = 30\n顺便把 DEBUG 删掉，再建一个 utils.py\n'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

function records(home: string, workspace: string): TreeRecord[] {
  const store = SessionStore.open(SessionStore.latest(home, workspace) as string, {
    readOnly: true
  })
  try {
    return store.tree().activePath().slice()
  } finally {
    store.close()
  }
}

function allRecords(home: string, workspace: string): unknown[] {
  const file = SessionStore.latest(home, workspace) as string
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown)
}

describe('chat summaries with the scripted model', () => {
  it('summarizes up to here, compacts, shows the context, then leaves a branch with a summary', async () => {
    const { workspace, home } = seedWorkspace()
    const chat = chatIn(workspace, script, { REWIND_STUDIO_HOME: home })
    const first = await chat(
      `${TURNS}/context\n/summarize-up-to 2 keep it short\n/compact\n/exit\n`
    )
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/Context: [\d,]+ of 200,000 tokens \(\d+%\), estimated\./)
    expect(first.stdout).toContain(
      'What came before checkpoint 2 is one summary now; from checkpoint 2 on, the turns stay as they were.'
    )
    expect(first.stdout).toContain('  │ ## Goal')
    expect(first.stdout).toContain('  │ Modified: config.py')
    expect(first.stdout).toContain('Compacted; summary:')
    const compactions = allRecords(home, workspace).filter(
      (r) => (r as { type: string }).type === 'compaction'
    )
    expect(compactions).toMatchObject([
      { trigger: 'manual', details: { instructions: 'keep it short' } },
      { trigger: 'manual' }
    ])
    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'TIMEOUT = 30\nHOST = "localhost"\n'
    )

    const second = await chat('/rewind 2 both --summary focus on DEBUG\n/exit\n', '--continue')
    expect(second.code).toBe(0)
    expect(second.stdout).toContain('Summarizing the branch you leave… (Ctrl-C stops)')
    expect(second.stdout).toContain('Summary of the branch left:')
    expect(second.stdout).toContain('  │ Modified: config.py, utils.py')
    expect(second.stdout).toContain('Original prompt: 顺便把 DEBUG 删掉，再建一个 utils.py')
    const path = records(home, workspace)
    expect(path.at(-1)).toMatchObject({
      type: 'branch_summary',
      details: { instructions: 'focus on DEBUG', modifiedFiles: ['config.py', 'utils.py'] }
    })
    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n'
    )
  }, 60_000)

  it('summarizes from here (the prompt comes back) and follows summary.onLeave on a pipe', async () => {
    const { workspace, home } = seedWorkspace()
    const chat = chatIn(workspace, script, { REWIND_STUDIO_HOME: home })
    const first = await chat(`${TURNS}/summarize-from 2\n/summarize-from 7\n/exit\n`)
    expect(first.stdout).toContain(
      'Checkpoint 2 and what followed are one summary now; the conversation goes on from before it.'
    )
    expect(first.stdout).toContain('Original prompt: 顺便把 DEBUG 删掉，再建一个 utils.py')
    expect(first.stdout).toContain('✘ No checkpoint 7: choose 1 to 1 (see /rewind).')
    // No file changes: DEBUG stays removed.
    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'TIMEOUT = 30\nHOST = "localhost"\n'
    )
    expect(records(home, workspace).at(-1)).toMatchObject({ type: 'branch_summary' })

    // "ask" (the default) has nobody to ask on a pipe: no summary; the setting says summarize.
    const asked = await chat('/rewind 1 conversation\n/exit\n', '--continue')
    expect(asked.stdout).not.toContain('Summary of the branch left')
    const set = await chat(
      `${TURNS}/rewind 2 conversation\n/exit\n`,
      '--continue',
      '--setting',
      'summary.onLeave=summarize'
    )
    expect(set.stdout).toContain('Summary of the branch left:')
  }, 60_000)

  it('compacts automatically in a small window set with --setting, and keeps going', async () => {
    const { workspace, home } = seedWorkspace()
    const chat = chatIn(workspace, script, { REWIND_STUDIO_HOME: home })
    const run = await chat(
      `${TURNS}/exit\n`,
      '--setting',
      'compaction.contextWindow=3000',
      '--setting',
      'compaction.threshold=0.5'
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/! The context holds \d+ of 3000 tokens \(\d+%\): compacting/)
    expect(run.stdout).toMatch(/! Compacted the conversation: about \d+ → \d+ tokens\./)
    expect(run.stdout).toContain('● DEBUG 已删除，utils.py 已创建。')
    expect(
      allRecords(home, workspace).some((r) => (r as { trigger?: string }).trigger === 'auto')
    ).toBe(true)
  }, 60_000)
})

describe('cli summarize', () => {
  it('summarizes up to and from a checkpoint of a session file; refuses what it cannot do', async () => {
    const { workspace, home } = seedWorkspace()
    const env = { REWIND_STUDIO_HOME: home }
    await chatIn(workspace, script, env)(`${TURNS}/exit\n`)
    const file = SessionStore.latest(home, workspace) as string
    const upTo = await runCli(
      ['summarize', file, '--up-to', '2', '--instructions', 'only DEBUG', '--model', script],
      { env }
    )
    expect(upTo.stderr).toBe('')
    expect(upTo.code).toBe(0)
    expect(upTo.stdout).toContain('  │ ## Goal')
    expect(upTo.stdout).toMatch(
      /What came before checkpoint 2 is one summary now \(.+\); the rest stays\./
    )
    const from = await runCli(['summarize', file, '--from', '2', '--model', script], { env })
    expect(from.code).toBe(0)
    expect(from.stdout).toContain('Prompt to send again: 顺便把 DEBUG 删掉，再建一个 utils.py')
    const path = records(home, workspace)
    expect(path.at(-1)).toMatchObject({ type: 'branch_summary' })
    expect(path.some((r) => r.type === 'compaction')).toBe(false) // left on the branch before it

    const usage = await runCli(['summarize', file], { env })
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('give either --from N or --up-to N')
    const missing = await runCli(['summarize', file, '--from', '5', '--model', script], { env })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('No checkpoint 5: the active path has checkpoints 1 to 1')
  }, 60_000)
})

describe('summaries through the real SDK', () => {
  it('chat: /rewind with a summary asks the model, and the next request repeats the kept prefix', async () => {
    server = await startMessagesServer([
      {
        kind: 'message',
        content: [{ type: 'tool_use', id: 'tu_1', name: 'Read', input: { file_path: 'config.py' } }]
      },
      text('It has DEBUG and HOST.'),
      {
        kind: 'message',
        content: [
          {
            type: 'tool_use',
            id: 'tu_2',
            name: 'Edit',
            input: { file_path: 'config.py', old_string: 'DEBUG = True\n', new_string: '' }
          }
        ]
      },
      text('Removed DEBUG.'),
      text('## Goal\nRemove DEBUG.\n## Progress\n### Done\nDEBUG removed.'),
      text('Looked.')
    ])
    const { workspace, chat } = loopbackChat(server.url)
    const run = await chat(
      'what is in config.py?\nremove DEBUG\n/rewind 2 --summary\njust look\n/exit\n'
    )
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('  │ DEBUG removed.')
    const [, , before, , summary, after] = server.requests
    expect(JSON.stringify(summary?.body.system)).toContain(SUMMARY_SYSTEM)
    expect(JSON.stringify(summary?.body.messages)).toContain('remove DEBUG')
    expect(JSON.stringify(summary?.body.messages)).not.toContain('what is in config.py?')
    const plain = (m: unknown) =>
      JSON.stringify(m, (key, v: unknown) => (key === 'cache_control' ? undefined : v))
    expect(after?.body.messages.slice(0, 3).map(plain)).toEqual(
      before?.body.messages.slice(0, 3).map(plain)
    )
    expect(plain(after?.body.messages.at(-1))).toContain('DEBUG removed.')
    expect(plain(after?.body.messages.at(-1))).toContain('just look')
    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nHOST = "localhost"\n'
    )
  }, 60_000)

  it('Ctrl-C stops a summary: nothing changes, and the chat reads on', async () => {
    server = await startMessagesServer([
      { kind: 'message', content: [{ type: 'text', text: 'Answer one.' }] },
      { kind: 'message', content: [{ type: 'text', text: 'Answer two.' }] },
      { kind: 'stall', content: [{ type: 'text', text: 'A summary that never ends' }] },
      { kind: 'message', content: [{ type: 'text', text: 'Answer three.' }] }
    ])
    const { workspace, home } = seedWorkspace()
    const chat = startCli(
      ['chat', '--cwd', workspace, '--model', 'claude-test'],
      loopbackEnv(home, server.url)
    )
    chat.child.stdin.write('hello\nsecond\n/summarize-up-to 2\n')
    await chat.waitFor('Summarizing… (Ctrl-C stops)')
    await expect.poll(() => server?.requests.length).toBe(3)
    chat.child.kill('SIGINT')
    await chat.waitFor('✘ Stopped: no summary was made and nothing was changed.')
    chat.child.stdin.write('third\n')
    await chat.waitFor('● Answer three.')
    chat.child.stdin.end()
    expect(await chat.exited).toEqual({ code: 0, signal: null })
    expect(
      allRecords(home, workspace).some((r) => (r as { type: string }).type === 'compaction')
    ).toBe(false)
  }, 60_000)

  it('cli summarize --up-to asks the real model through the SDK', async () => {
    server = await startMessagesServer([
      { kind: 'message', content: [{ type: 'text', text: 'Answer one.' }] },
      { kind: 'message', content: [{ type: 'text', text: 'Answer two.' }] },
      { kind: 'message', content: [{ type: 'text', text: 'Turn one was a greeting.' }] }
    ])
    const { workspace, home } = seedWorkspace()
    const env = loopbackEnv(home, server.url)
    await chatIn(workspace, 'claude-test', env)('hello\nsecond\n/exit\n')
    const file = SessionStore.latest(home, workspace) as string
    const run = await runCli(['summarize', file, '--up-to', '2', '--model', 'claude-test'], { env })
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('  │ Turn one was a greeting.')
    const asked = server.requests[2]
    expect(JSON.stringify(asked?.body.messages)).toContain('hello')
    expect(JSON.stringify(asked?.body.messages)).not.toContain('second')
  }, 60_000)
})
