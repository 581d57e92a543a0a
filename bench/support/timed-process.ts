// A whole process timed as a user meets it (wall clock) and by the CPU it used (user + system,
// through /usr/bin/time): on a shared machine the wall time moves with the load, the CPU time
// much less, so the benches print both. Asynchronous, so a server in the bench's own process (the
// loopback Messages server) can answer the child.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TimedRun {
  wallMs: number
  cpuMs: number
  stdout: string
}

export interface TimedOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** Written to the child's stdin, which is then closed. */
  input?: string
}

const scratch = mkdtempSync(join(tmpdir(), 'rs-bench-time-'))
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }))
let runs = 0

/** Runs `command args` to its end; rejects when it exits other than 0. */
export function timedProcess(
  command: string,
  args: string[],
  options: TimedOptions = {}
): Promise<TimedRun> {
  const times = join(scratch, `${runs++}.txt`)
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', times, command, ...args], {
      env: options.env ?? process.env,
      cwd: options.cwd
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6
      if (code !== 0) {
        reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stdout}${stderr}`))
        return
      }
      const [user = NaN, system = NaN] = readFileSync(times, 'utf8')
        .trim()
        .split('\n')
        .at(-1)!
        .split(' ')
        .map(Number)
      rmSync(times, { force: true })
      resolve({ wallMs, cpuMs: (user + system) * 1000, stdout })
    })
    child.stdin.end(options.input ?? '')
  })
}

export const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

/** "min / median / max ms" of a list of times. */
export const range = (xs: number[]): string =>
  `${Math.min(...xs).toFixed(0)} / ${median(xs).toFixed(0)} / ${Math.max(...xs).toFixed(0)} ms`
