// How soon a line another process appends to a session shows in the graph the studio pushes:
// a child process holds the session as its writer (as the CLI chat does) and appends a prompt every
// 200 ms; the studio has it open read-only and follows the file (src/core/sources/live-tail.ts).
// Latency: from asking the child to append (the line written, then fdatasync'd, in the child) to
// the 'session:graphUpdate' push holding the new node, one clock (this process's).
// Baseline in the same run: a bare fs.watch on the same file, from the same request to its
// callback (the least any follower can take: the child's write plus the kernel's notice).
// Target: < 1 s per line.
// Run: npx tsx bench/live-tail.ts [appends]
import { watch } from 'node:fs'
import type { GraphUpdate } from '../src/shared/graph-encoding'
import { graphFollower } from '../test/support/graph-updates'
import { studioBesideWriter } from '../test/support/session-writer'

const appends = Number(process.argv[2] ?? 30)
const now = () => performance.timeOrigin + performance.now()

const shown = new Map<string, number>()
const follow = graphFollower()
const { file, writer, studio } = await studioBesideWriter((event, payload) => {
  if (event !== 'session:graphUpdate') return
  const at = now()
  for (const node of follow(payload as GraphUpdate).nodes)
    if (!shown.has(node.id)) shown.set(node.id, at)
})
if (studio.info().readOnlyReason === null) throw new Error('the studio should have it read-only')

let lastWatch = 0
const watcher = watch(file, () => (lastWatch = now()))

const latency: number[] = []
const watchLatency: number[] = []
for (let i = 0; i < appends; i++) {
  const before = lastWatch
  const at = now()
  const uuid = await writer.append(`prompt ${i}`)
  const deadline = Date.now() + 5000
  while (!shown.has(uuid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2))
  const seen = shown.get(uuid)
  if (seen === undefined) throw new Error(`prompt ${i} never reached the graph`)
  latency.push(seen - at)
  if (lastWatch !== before) watchLatency.push(lastWatch - at)
  await new Promise((r) => setTimeout(r, 200))
}
watcher.close()
await writer.close()
await studio.close()

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const range = (xs: number[]) =>
  `min ${Math.min(...xs).toFixed(1)} / median ${median(xs).toFixed(1)} / max ${Math.max(...xs).toFixed(1)} ms`
console.log(`${appends} lines appended by another process, 200 ms apart`)
console.log(`append asked -> graph event (studio)    ${range(latency)}`)
console.log(
  `baseline: append asked -> fs.watch     ${range(watchLatency)} (${watchLatency.length} events seen)`
)
console.log(
  `ratio ${(median(latency) / median(watchLatency)).toFixed(1)} by median; worst ${Math.max(...latency).toFixed(0)} ms (target < 1000 ms)`
)
