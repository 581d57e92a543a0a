// Runs a TypeScript child that does part of a job, prints "paused" at the moment a crash is to
// be tested, and waits: it is SIGKILLed there, as a power cut or an OOM kill would end it.
import { spawn } from 'node:child_process'
import { once } from 'node:events'

/** Resolves with the child's output once it was killed; throws when it ended otherwise. */
export async function killWhenPaused(script: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit']
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    if (out.includes('paused')) child.kill('SIGKILL')
  })
  const [, signal] = await once(child, 'exit')
  if (signal !== 'SIGKILL')
    throw new Error(`${script} ended (${String(signal)}) before it paused:\n${out}`)
  return out
}
