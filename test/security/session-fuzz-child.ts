// Run by session-fuzz.test.ts: the real command line (src/cli/index.ts) in one long-lived
// process, so a few hundred commands cost one start-up. One command per stdin line
// ({args, home}); one JSON line back per command: its exit code and what it printed, or the
// stack of what it threw. The test times each command and kills this process when one hangs.
import { createInterface } from 'node:readline'
import { format } from 'node:util'
import { main } from '../../src/cli/index'

let stdout = ''
let stderr = ''
console.log = (...args: unknown[]) => void (stdout += `${format(...args)}\n`)
console.error = (...args: unknown[]) => void (stderr += `${format(...args)}\n`)
console.warn = console.error

// What a command prints as bytes straight to stdout (inspect's text) is captured too; the
// replies go through the real write.
const write = process.stdout.write.bind(process.stdout)
const decoder = new TextDecoder()
process.stdout.write = ((chunk: string | Uint8Array) => {
  stdout += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
  return true
}) as typeof process.stdout.write

const reply = (value: object) => {
  stdout += decoder.decode()
  write(`${JSON.stringify(value)}\n`)
}
const die = (error: unknown) => {
  reply({ code: null, stdout, stderr, threw: `uncaught: ${(error as Error)?.stack ?? error}` })
  process.exit(70)
}
process.on('uncaughtException', die)
process.on('unhandledRejection', die)

for await (const line of createInterface({ input: process.stdin })) {
  const { args, home } = JSON.parse(line) as { args: string[]; home: string }
  process.env.REWIND_STUDIO_HOME = home
  stdout = ''
  stderr = ''
  try {
    const code = await main(args)
    reply({ code, stdout, stderr })
  } catch (error) {
    reply({ code: null, stdout, stderr, threw: (error as Error)?.stack ?? String(error) })
  }
}
