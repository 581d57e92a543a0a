import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isProcessAlive } from './process-alive'

const stateOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.charAt(stat.lastIndexOf(')') + 2)
}

describe('isProcessAlive', () => {
  it('says a running process is alive and this one too', () => {
    expect(isProcessAlive(process.pid)).toBe(true)
  })

  it.runIf(process.platform === 'linux')(
    'says a zombie (dead, not reaped by its parent) is not alive',
    async () => {
      // The shell starts a short sleep, then becomes a long one that never waits for it.
      const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 30'], {
        stdio: ['ignore', 'pipe', 'ignore']
      })
      try {
        const pid = Number(
          await new Promise<string>((done) => parent.stdout.once('data', (d) => done(String(d))))
        )
        await expect.poll(() => stateOf(pid), { timeout: 10_000 }).toBe('Z')
        expect(isProcessAlive(pid)).toBe(false)
      } finally {
        parent.kill('SIGKILL')
      }
    }
  )
})
