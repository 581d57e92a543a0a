// runChild (child-env.ts): a program run to its end with its time and output bounded, in a
// process group of its own that a cut kills whole, with the environment scrubbed of secrets.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runChild } from './child-env'

describe('runChild', () => {
  it('feeds stdin, returns stdout and the status, and gives the child no API key', async () => {
    const run = await runChild('sh', ['-c', 'cat; echo "key=${ANTHROPIC_API_KEY:-none}"; exit 3'], {
      cwd: process.cwd(),
      env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-secret-123' },
      input: ['piped ', Buffer.from('in\n')],
      timeoutMs: 10_000,
      maxStdoutBytes: 1000
    })
    expect(run).toMatchObject({ status: 3 })
    expect(run.stdout.toString()).toBe('piped in\nkey=none\n')
  })

  it('kills the whole group past its time, what it started in the background too', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'rs-run-child-')), 'pid')
    const started = runChild('sh', ['-c', `sleep 30 & echo $! > '${pidFile}'; wait`], {
      cwd: process.cwd(),
      timeoutMs: 500,
      maxStdoutBytes: 1000
    })
    await expect(started).rejects.toMatchObject({
      reason: 'timeout',
      message: expect.stringContaining('took longer than')
    })
    const background = Number(readFileSync(pidFile, 'utf8'))
    // Gone, or a zombie nobody reaps (this container's pid 1 may not): not running either way.
    const running = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${background}/stat`, 'utf8'))
      } catch {
        return false
      }
    }
    await expect.poll(running).toBe(false)
  })

  it('kills the child once its output passes the bound', async () => {
    await expect(
      runChild('yes', [], { cwd: process.cwd(), timeoutMs: 10_000, maxStdoutBytes: 100_000 })
    ).rejects.toMatchObject({ reason: 'output' })
  })

  it('says a program that cannot start cannot start', async () => {
    await expect(
      runChild('no-such-program-here', [], {
        cwd: process.cwd(),
        timeoutMs: 1000,
        maxStdoutBytes: 10
      })
    ).rejects.toMatchObject({ reason: 'spawn' })
  })
})
