// 4 parallel runs of a 10-step scripted task whose model answers 200 ms after each call, beside
// one run of the same task, in the same process and the same session (issue 30's target: wall
// time ≤ 1.5× one run). Each step is a model answer (a Write of a small file, the tenth the end
// of the turn), so a run spends ~2 s waiting on its model and what runs add is the workspace,
// the run's log and agent, and the join. Alternating one and four, the median round printed.
//   npx tsx bench/parallel-runs.ts [rounds] [delayMs]   (default 3 200)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { oneTurnSession, slowScripted, timeRuns } from './support/parallel-session'

const rounds = Number(process.argv[2] ?? 3)
const delayMs = Number(process.argv[3] ?? 200)
const STEPS = 10
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

const base = mkdtempSync(join(tmpdir(), 'rs-bench-parallel-runs-'))
const workspace = join(base, 'ws')
const home = join(base, 'home')
mkdirSync(workspace)
for (let i = 0; i < 50; i++)
  writeFileSync(join(workspace, `src${i}.ts`), `export const n${i} = ${i}\n`)
const script = join(base, 'task.json')
const writes = Array.from({ length: STEPS - 1 }, (_, i) => [
  {
    type: 'tool_use',
    name: 'Write',
    input: { file_path: `out/step${i}.txt`, content: `step ${i}\n` }
  }
])
writeFileSync(
  script,
  JSON.stringify({
    rules: [{ match: 'task', responses: [...writes, [{ type: 'text', text: 'done' }]] }]
  })
)

const s = await oneTurnSession(base, workspace, home)
const model = () => slowScripted(script, delayMs)
const one: number[] = []
const four: number[] = []
for (let round = 0; round < rounds; round++) {
  const single = await timeRuns(home, s, ['task'], model)
  if (single.runs.some((r) => r.state !== 'done')) throw new Error(JSON.stringify(single.runs))
  one.push(single.ms)
  const parallel = await timeRuns(home, s, ['task', 'task', 'task', 'task'], model)
  if (parallel.runs.some((r) => r.state !== 'done')) throw new Error(JSON.stringify(parallel.runs))
  four.push(parallel.ms)
}
const f = median(four)
const b = median(one)
console.log(
  `4 runs of ${STEPS} steps, model ${delayMs} ms: ${f.toFixed(0)} ms; one run: ${b.toFixed(0)} ms; ratio ${(f / b).toFixed(2)} (target ≤ 1.5)`
)
s.session.close()
rmSync(base, { recursive: true, force: true })
