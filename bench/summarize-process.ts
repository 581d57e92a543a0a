// "Summarize up to here" and /compact as a user runs them: whole processes of the installed
// command (bin/rewind-studio.mjs) on a 500-turn branch, the real Anthropic SDK posting to the
// loopback Messages server (test/support/messages-server.ts), which answers at once:
//   - `rewind-studio summarize FILE --up-to N --model claude-test`;
//   - `rewind-studio chat --continue` typing `/compact` then `/exit`.
// Baseline, in the same run, alternating round by round: a Node process that reads the same
// session file, splits it and JSON.parses every line, then POSTs the very request body ours sent
// (recorded by the server) and reads the streamed answer to its end. Target: ratio ≤ 1.3. The
// baseline keeps WebAssembly on V8's baseline compiler from just before its request, as ours does
// from its first model client (core/agent/model/anthropic.ts: else Node waits 50-100 ms at exit
// for fetch's parser to be recompiled): neither side pays for that wait, both for the flag (Node's
// own modules loaded after it compile without their code cache).
//   npx tsx bench/summarize-process.ts [turns] [rounds]
// With BENCH_CPU_PROF=DIR, each of ours writes a CPU profile there (node --cpu-prof).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureCliBuild } from '../scripts/ensure-build.mjs'
import { sessionFileName, sessionsDir } from '../src/core/session/paths'
import { startMessagesServer } from '../test/support/messages-server'
import { writeBranch } from './support/linear-branch'
import { type TimedRun, median, range, timedProcess } from './support/timed-process'

const TURNS = Number(process.argv[2] ?? 500)
const ROUNDS = Number(process.argv[3] ?? 7)
const repo = join(import.meta.dirname, '..')
const dir = mkdtempSync(join(tmpdir(), 'rs-bench-summarize-process-'))
const cwd = join(dir, 'workspace')
const home = join(dir, 'home')
mkdirSync(cwd)
const source = join(dir, 'source.jsonl')
writeBranch(source, TURNS, cwd)
const sessionFile = join(
  sessionsDir(home, cwd),
  sessionFileName('2026-01-01T00:00:00.000Z', '01900000-0000-7000-8000-000000000000')
)
mkdirSync(join(sessionFile, '..'), { recursive: true })

const server = await startMessagesServer([], {
  answer: () => ({
    kind: 'message',
    content: [{ type: 'text', text: '## Goal\nChange the modules.\n## Next steps\nGo on.' }]
  })
})
const env = {
  ...process.env,
  REWIND_STUDIO_HOME: home,
  ANTHROPIC_API_KEY: 'bench-key',
  ANTHROPIC_BASE_URL: server.url
}

// The baseline's whole process: read + split + parse the log, post the recorded body, read the
// stream. Plain JavaScript, started as ours is (no loader).
const baselineScript = join(dir, 'baseline.mjs')
writeFileSync(
  baselineScript,
  `import { readFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
const [file, url, bodyFile] = process.argv.slice(2)
const lines = readFileSync(file, 'utf8').split('\\n')
let records = 0
for (const line of lines) if (line !== '') { JSON.parse(line); records++ }
setFlagsFromString('--liftoff-only')
const response = await fetch(url + '/v1/messages', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': 'bench-key', 'anthropic-version': '2023-06-01' },
  body: readFileSync(bodyFile)
})
const text = await response.text()
if (!response.ok || records === 0 || !text.includes('message_stop')) process.exit(1)
`
)

ensureCliBuild()
const profiled = process.env.BENCH_CPU_PROF
const bin = join(repo, 'bin', 'rewind-studio.mjs')
const ourCommand =
  profiled === undefined ? [bin] : ['--cpu-prof', `--cpu-prof-dir=${profiled}`, bin]

/** One run of ours on a fresh copy of the branch; the request body it posted. */
const run = (args: string[], input?: string) =>
  timedProcess(process.execPath, args, { env, cwd, ...(input !== undefined ? { input } : {}) })

async function ours(kind: 'summarize' | 'compact'): Promise<TimedRun & { body: string }> {
  copyFileSync(source, sessionFile)
  const before = server.requests.length
  const done =
    kind === 'summarize'
      ? await run([
          ...ourCommand,
          'summarize',
          sessionFile,
          '--up-to',
          String(TURNS),
          '--model',
          'claude-test'
        ])
      : await run(
          [...ourCommand, 'chat', '--cwd', cwd, '--continue', '--model', 'claude-test'],
          '/compact\n/exit\n'
        )
  if (kind === 'compact' && !done.stdout.includes('Compacted'))
    throw new Error(`no compaction: ${done.stdout}`)
  const posted = server.requests.slice(before)
  if (posted.length !== 1) throw new Error(`${kind} posted ${posted.length} requests`)
  return { ...done, body: posted[0]?.raw ?? '' }
}

async function baseline(body: string): Promise<TimedRun> {
  copyFileSync(source, sessionFile)
  const bodyFile = join(dir, 'body.json')
  writeFileSync(bodyFile, body)
  return run([baselineScript, sessionFile, server.url, bodyFile])
}

console.log(
  `${TURNS}-turn branch (${(statSync(source).size / 1e6).toFixed(1)} MB), ${ROUNDS} rounds each, min / median / max`
)
for (const kind of ['summarize', 'compact'] as const) {
  const mine: TimedRun[] = []
  const base: TimedRun[] = []
  // The first run warms the page cache and the build; every round starts from the same copy,
  // so its request body is every round's.
  const { body } = await ours(kind)
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first, so neither always runs on a machine just made busy.
    if (round % 2 === 1) base.push(await baseline(body))
    mine.push(await ours(kind))
    if (round % 2 === 0) base.push(await baseline(body))
  }
  const label = kind === 'summarize' ? 'summarize --up-to, a process' : 'chat /compact, a process'
  const wall = (runs: TimedRun[]) => runs.map((r) => r.wallMs)
  const cpu = (runs: TimedRun[]) => runs.map((r) => r.cpuMs)
  console.log(`  ${label}: wall ${range(wall(mine))}, CPU ${range(cpu(mine))}`)
  console.log(
    `  baseline read + parse + post the same request: wall ${range(wall(base))}, CPU ${range(cpu(base))}`
  )
  console.log(
    `  ratio wall ${(median(wall(mine)) / median(wall(base))).toFixed(2)}, CPU ${(median(cpu(mine)) / median(cpu(base))).toFixed(2)} (medians); target ≤ 1.3`
  )
}
await server.close()
rmSync(dir, { recursive: true, force: true })
