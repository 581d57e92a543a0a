import { spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { childEnv } from './child-env'
import { runCommand } from './command-runner'

/** What runCommand gives: each stream's bytes, the exit code, the pid it reported. */
async function run(script: string, cwd: string) {
  const out = { stdout: [] as Buffer[], stderr: [] as Buffer[] }
  let pid: number | null = null
  const { exitCode } = await runCommand('bash', ['-c', script], cwd, {
    onStart: (started) => {
      pid = started
      // For a command that must know this process has its pid (see "after the helper died").
      writeFileSync(join(cwd, 'announced'), '')
    },
    onOutput: (stream, chunk) => out[stream].push(Buffer.from(chunk))
  })
  return { stdout: Buffer.concat(out.stdout), stderr: Buffer.concat(out.stderr), exitCode, pid }
}

/** The same command run directly from this process, the plain way. */
function plain(script: string, cwd: string) {
  const result = spawnSync('bash', ['-c', script], { cwd, env: childEnv() })
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.status }
}

/** Whether process `pid` has ended (gone, or a zombie nobody reaped yet). */
function gone(pid: number): boolean {
  try {
    return /^[ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '')
  } catch {
    return true
  }
}

/** A SIGKILL sent is delivered at once, but not within the same instant: waits for it (bounded). */
const ended = (pid: number) =>
  vi.waitFor(() => expect(gone(pid)).toBe(true), { timeout: 5000, interval: 20 })

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

const tempDir = () => mkdtempSync(join(tmpdir(), 'rs-command-runner-'))
afterEach(() => {
  delete process.env.REWIND_STUDIO_TEST_TOKEN
  delete process.env.RS_RUNNER_MARK
})

describe('runCommand (commands started from the helper process)', () => {
  it('gives the bytes, streams and exit code a plain spawn gives, on fuzzed output', async () => {
    const cwd = tempDir()
    for (let round = 0; round < 8; round++) {
      // Any bytes (split UTF-8, NULs, no final newline), on both streams, any exit code.
      const size = 1 + Math.floor(Math.random() * 200_000)
      writeFileSync(join(cwd, 'out.bin'), randomBytes(size))
      writeFileSync(join(cwd, 'err.bin'), randomBytes(size % 5000))
      const script = `cat out.bin; cat err.bin >&2; head -c ${size % 777} out.bin; exit ${round * 37}`
      const ours = await run(script, cwd)
      const expected = plain(script, cwd)
      expect(sha(ours.stdout)).toBe(sha(expected.stdout))
      expect(sha(ours.stderr)).toBe(sha(expected.stderr))
      expect(ours.exitCode).toBe(expected.exitCode)
    }
  })

  it('passes a large output whole and in order (the helper pauses the pipes while its messages wait)', async () => {
    const cwd = tempDir()
    const big = randomBytes(24_000_000)
    writeFileSync(join(cwd, 'big.bin'), big)
    const ours = await run('cat big.bin; cat big.bin >&2', cwd)
    expect(sha(ours.stdout)).toBe(sha(big))
    expect(sha(ours.stderr)).toBe(sha(big))
    expect(ours.exitCode).toBe(0)
  })

  it('runs in the given folder, in a process group of its own, not as a child of this process', async () => {
    const cwd = tempDir()
    const { stdout, pid } = await run('pwd; echo $$; echo $PPID; ps -o pgid= -p $$', cwd)
    const [dir, self, parent, group] = stdout.toString().trim().split('\n')
    expect(dir).toBe(cwd)
    expect(Number(self)).toBe(pid)
    expect(Number(group)).toBe(pid)
    // The point of the helper: the fork is not of this (big) process.
    expect(Number(parent)).not.toBe(process.pid)
  })

  it('passes the environment scrubbed as it is when the command starts', async () => {
    const cwd = tempDir()
    process.env.REWIND_STUDIO_TEST_TOKEN = 'secret-token-value'
    process.env.RS_RUNNER_MARK = `mark-${Math.random()}`
    const { stdout } = await run('env', cwd)
    const env = stdout.toString()
    expect(env).toContain(`RS_RUNNER_MARK=${process.env.RS_RUNNER_MARK}`)
    expect(env).not.toContain('secret-token-value')
    expect(env).not.toContain('ELECTRON_RUN_AS_NODE')
  })

  it('kills what the command left running in its group when it exits', async () => {
    const cwd = tempDir()
    await run('sleep 60 & echo $! > bg.pid', cwd)
    await ended(Number(readFileSync(join(cwd, 'bg.pid'), 'utf8')))
  })

  it('rejects a command that cannot start, saying why', async () => {
    const cwd = tempDir()
    const failed = runCommand('no-such-program-rs', [], cwd, {
      onStart: () => undefined,
      onOutput: () => undefined
    })
    await expect(failed).rejects.toMatchObject({ code: 'ENOENT' })
    // The helper is still there for the next one.
    expect((await run('echo next', cwd)).stdout.toString()).toBe('next\n')
  })

  it('after the helper died: fails and ends the command it ran, starts a new one', async () => {
    const cwd = tempDir()
    // Killed once this process knows the command's group (before that, on a loaded machine, a
    // command that kills the helper could outlive it, as one that calls setsid can anyway).
    const running = run(
      'echo $$ > cmd.pid; until [ -e announced ]; do sleep 0.01; done; kill -9 $PPID; sleep 60',
      cwd
    )
    await expect(running).rejects.toThrow(/the process that starts commands stopped/)
    await ended(Number(readFileSync(join(cwd, 'cmd.pid'), 'utf8')))
    expect((await run('echo again', cwd)).stdout.toString()).toBe('again\n')
  })
})
