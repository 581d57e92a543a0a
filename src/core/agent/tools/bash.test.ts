import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { createBashTool } from './bash'
import { makeWorkspace } from '../../../../test/support/tool-workspace'
import type { TestWorkspace } from '../../../../test/support/tool-workspace'
import { runTool } from './tool'
import type { Tool } from './tool'

const bash = createBashTool({ sandbox: false }) as Tool

/** A process that ended is gone or a zombie nobody reaped yet (PID 1 in a container may not). */
function isGone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true
  } catch {
    return true
  }
}

/** Waits for a condition the test itself causes; the bound only keeps a broken run from hanging. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (condition()) return
    await sleep(50)
  }
  throw new Error(`gave up waiting: ${what}`)
}

function pidIn(ws: TestWorkspace, rel: string): number {
  return Number(ws.read(rel).trim())
}

describe('Bash refuses or fails clearly', () => {
  it('does not run the command when the snapshot before it fails', async () => {
    const ws = makeWorkspace()
    ws.guard.failing.beforeCommand = 'cannot list the workspace'
    const out = await runTool(bash, { command: 'touch ran.txt' }, ws.ctx)
    expect(out).toEqual({
      isError: true,
      content:
        'could not snapshot the workspace before the command: cannot list the workspace; the command was not run'
    })
    expect(existsSync(join(ws.root, 'ran.txt'))).toBe(false)
  })

  it('reports a non-zero exit code with the output', async () => {
    const ws = makeWorkspace()
    const out = await runTool(bash, { command: 'echo broken >&2; exit 3' }, ws.ctx)
    expect(out.isError).toBe(true)
    expect(out.content).toBe('Exit code 3\nbroken')
    expect(out.details).toMatchObject({ exitCode: 3, ended: null })
  })

  it('kills the whole process group on timeout', async () => {
    const ws = makeWorkspace()
    const out = await runTool(
      bash,
      { command: 'sleep 60 & echo $! > bg.pid; echo started; sleep 60', timeout: 500 },
      ws.ctx
    )
    expect(out.isError).toBe(true)
    expect(out.content).toMatch(/^Command timed out after 500 ms and was killed\.\nstarted\n/)
    await until(() => isGone(pidIn(ws, 'bg.pid')), 'the background sleep to end')
  })

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const ws = makeWorkspace()
    const out = await runTool(
      bash,
      { command: "trap '' TERM; sleep 60 & echo $! > bg.pid; sleep 60", timeout: 300 },
      ws.ctx
    )
    expect(out.content).toMatch(/^Command timed out after 300 ms/)
    await until(() => isGone(pidIn(ws, 'bg.pid')), 'the TERM-proof sleep to end')
  })

  it('kills the process group when the call is cancelled', async () => {
    const ws = makeWorkspace()
    const running = runTool(bash, { command: 'echo $$ > bash.pid; sleep 60' }, ws.ctx)
    await until(
      () => existsSync(join(ws.root, 'bash.pid')) && ws.read('bash.pid') !== '',
      'the command to start'
    )
    ws.abort.abort()
    const out = await running
    expect(out.isError).toBe(true)
    expect(out.content).toMatch(/^Command was cancelled and killed\./)
    await until(() => isGone(pidIn(ws, 'bash.pid')), 'bash to end')
    // file history still learns what the killed command changed
    expect(ws.guard.calls.map((c) => c.hook)).toEqual(['beforeCommand', 'afterCommand'])
    expect(out.content).toContain('Created: bash.pid')
  })

  it('does not start a command cancelled while file history was snapshotting', async () => {
    const ws = makeWorkspace()
    const snapshot = ws.guard.beforeCommand.bind(ws.guard)
    ws.guard.beforeCommand = async (tool) => {
      await snapshot(tool)
      ws.abort.abort()
    }
    const out = await runTool(bash, { command: 'touch ran.txt' }, ws.ctx)
    expect(out.content).toMatch(/^Command was cancelled/)
    expect(existsSync(join(ws.root, 'ran.txt'))).toBe(false)
    expect(ws.guard.calls.map((c) => c.hook)).toEqual(['beforeCommand', 'afterCommand'])
  })

  it('says so when file history cannot check the changes, keeping the output', async () => {
    const ws = makeWorkspace()
    ws.guard.failing.afterCommand = 'snapshot lost'
    const out = await runTool(bash, { command: 'echo done' }, ws.ctx)
    expect(out.isError).toBe(false)
    expect(out.content).toBe(
      'done\n\nWarning: file history could not check what the command changed (snapshot lost).'
    )
  })
})

describe('Bash', () => {
  it('runs in the workspace and reports the files it created, modified and deleted', async () => {
    const ws = makeWorkspace()
    ws.put('old.txt', 'old')
    ws.put('mod.txt', 'a\n')
    const out = await runTool(
      bash,
      { command: 'pwd; echo x > new.txt; rm old.txt; echo b >> mod.txt' },
      ws.ctx
    )
    expect(out).toEqual({
      isError: false,
      content: `${ws.root}\n\nFiles changed by the command:\nCreated: new.txt\nModified: mod.txt\nDeleted: old.txt`,
      details: {
        exitCode: 0,
        ended: null,
        changes: {
          created: ['new.txt'],
          modified: ['mod.txt'],
          deleted: ['old.txt'],
          untracked: [],
          notBackedUp: [],
          warnings: [],
          unknownOrigin: []
        }
      }
    })
    expect(ws.guard.calls).toEqual([
      { hook: 'beforeCommand', tool: 'Bash' },
      { hook: 'afterCommand', tool: 'Bash' }
    ])
  })

  it('ends what the command left running in the background when bash exits', async () => {
    const ws = makeWorkspace()
    // If the background sleep survived, it would hold the output pipe open for a minute.
    const out = await runTool(bash, { command: 'sleep 60 & echo $! > bg.pid' }, ws.ctx)
    expect(out.isError).toBe(false)
    expect(out.content).toMatch(/^\(no output\)/)
    await until(() => isGone(pidIn(ws, 'bg.pid')), 'the background sleep to end')
  })

  it('keeps the head and tail of a long output, cutting the middle', async () => {
    const ws = makeWorkspace()
    const out = await runTool(
      bash,
      { command: 'echo FIRST; head -c 200000 /dev/zero | tr "\\0" x; echo; echo LAST' },
      ws.ctx
    )
    expect(out.content.startsWith('FIRST\n')).toBe(true)
    expect(out.content.trimEnd().endsWith('LAST')).toBe(true)
    expect(out.content).toMatch(/\.\.\. \[\d+ characters of output cut\] \.\.\./)
    expect(out.content.length).toBeLessThan(30_200)
  })

  it('decodes UTF-8 output', async () => {
    const ws = makeWorkspace()
    const out = await runTool(bash, { command: 'printf "加好了：TIMEOUT\\n"' }, ws.ctx)
    expect(out.content).toBe('加好了：TIMEOUT')
  })
})
