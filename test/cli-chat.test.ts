// The seed's walk-through through the terminal chat, with the scripted model: two prompts, exit,
// resume with --continue, /rewind 2, a new prompt. The files and the session log must end as the
// seed's do: config.py with DEBUG, TIMEOUT and HOST, utils.py present, both branches in the file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../src/core/session/store'
import { chatIn, repoRoot, runCli, seedWorkspace } from './support/cli'

const script = join(repoRoot, 'test/fixtures/seed-walkthrough.json')

function setUp() {
  const { workspace, home } = seedWorkspace()
  return {
    workspace,
    home,
    chat: chatIn(workspace, `scripted:${script}`, { REWIND_STUDIO_HOME: home })
  }
}

describe('cli chat', () => {
  it('walks through the seed: edit, exit, resume, /rewind 2, a new branch', async () => {
    const { workspace, home, chat } = setUp()
    const first = await chat(
      '给 config.py 加一个 TIMEOUT = 30\n顺便把 DEBUG 删掉，再建一个 utils.py\n/exit\n'
    )
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('⏺ Read(config.py)')
    expect(first.stdout).toContain('⏺ Edit(config.py)')
    expect(first.stdout).toContain('✔ Write -> Created utils.py (5 lines)')
    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'TIMEOUT = 30\nHOST = "localhost"\n'
    )

    const second = await chat(
      '/rewind\n/rewind 2\n只建 utils.py，DEBUG 先留着\n/exit\n',
      '--continue'
    )
    expect(second.code).toBe(0)
    expect(second.stdout).toContain('1. 给 config.py 加一个 TIMEOUT = 30  (changed 1 file)')
    expect(second.stdout).toContain('2. 顺便把 DEBUG 删掉，再建一个 utils.py  (changed 2 files)')
    expect(second.stdout).toContain('⎿ restored config.py')
    expect(second.stdout).toContain('⎿ deleted (created after it) utils.py')
    expect(second.stdout).toContain('6 messages left on this branch')
    expect(second.stdout).toContain('Original prompt: 顺便把 DEBUG 删掉，再建一个 utils.py')

    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n'
    )
    expect(readdirSync(workspace).sort()).toEqual(['config.py', 'utils.py'])

    const file = SessionStore.latest(home, workspace) as string
    const store = SessionStore.open(file, { readOnly: true })
    const tree = store.tree()
    expect(tree.leaves()).toHaveLength(2)
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual([
      '给 config.py 加一个 TIMEOUT = 30',
      '只建 utils.py，DEBUG 先留着'
    ])
    store.close()
  })

  it('undoes a rewind, bringing back a hand edit made after the agent’s', async () => {
    const { workspace, chat } = setUp()
    await chat('给 config.py 加一个 TIMEOUT = 30\n/exit\n')
    writeFileSync(
      join(workspace, 'config.py'),
      'DEBUG = True\nTIMEOUT = 30\nHOST = "example.org"\n'
    )
    const run = await chat('/rewind 1\n/undo\n/exit\n', '--continue')
    expect(run.stdout).toContain('⎿ restored config.py')
    expect(run.stdout).toContain('Undone')
    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nTIMEOUT = 30\nHOST = "example.org"\n'
    )
  })

  it('asks before an edit in the default permission mode; a denial reaches the model as a tool error', async () => {
    const { workspace, home } = setUp()
    const run = await runCli(
      ['chat', '--cwd', workspace, '--model', `scripted:${script}`, '--permission-mode', 'default'],
      { input: '给 config.py 加一个 TIMEOUT = 30\nn\n/exit\n', env: { REWIND_STUDIO_HOME: home } }
    )
    expect(run.stdout).toContain('Allow Edit')
    expect(run.stdout).toMatch(/✘ Edit -> .*denied/i)
    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nHOST = "localhost"\n'
    )
  })

  it('says clearly what is wrong with a rewind it cannot do', async () => {
    const { chat } = setUp()
    const run = await chat('/rewind 3\n/rewind 1 sideways\n/undo\n/exit\n')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('✘ No checkpoint 3')
    expect(run.stdout).toContain('✘ No checkpoint 1')
    expect(run.stdout).toMatch(/✘ Nothing to undo/)
  })

  it('resumes a session by its id (or a prefix of it), not just the latest', async () => {
    const { chat } = setUp()
    const first = await chat('给 config.py 加一个 TIMEOUT = 30\n/exit\n')
    const id = /Session (\S+) in/.exec(first.stdout)?.[1] as string
    await chat('/exit\n') // a newer, empty session is now the latest
    const resumed = await chat('/rewind\n/exit\n', '--resume', id.slice(0, 13))
    expect(resumed.stdout).toContain(`Session ${id} in`)
    expect(resumed.stdout).toContain('1. 给 config.py 加一个 TIMEOUT = 30  (changed 1 file)')
    const unknown = await chat('', '--resume', 'nope')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('No session nope')
  })

  it('refuses --continue where there is no session', async () => {
    const { chat } = setUp()
    const run = await chat('', '--continue')
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('No session to continue')
  })
})
