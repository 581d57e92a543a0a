// Adopting a run that changed 1,000 files (core/parallel/adopt.ts: a continue through the rewind
// engine, backups, journal, writes, record), beside `cp` of the same 1,000 files from the run's
// workspace into a fresh folder, in the same run (issue 30's target: ≤ 2×). Each round starts
// a run (a Bash command writing the files; not timed), adopts it, times that, and undoes it.
//   npx tsx bench/parallel-adopt.ts [files] [rounds]   (default 1000 3)
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { applyAdopt, planAdopt } from '../src/core/parallel/adopt'
import { RewindEngine } from '../src/core/rewind/rewind-engine'
import { restoreSpaceAt } from '../src/core/rewind/workspace-files'
import { ScriptedModel } from '../src/core/agent/model/scripted'
import { oneTurnSession, timeRuns } from './support/parallel-session'

const files = Number(process.argv[2] ?? 1000)
const rounds = Number(process.argv[3] ?? 3)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

const base = mkdtempSync(join(tmpdir(), 'rs-bench-parallel-adopt-'))
const workspace = join(base, 'ws')
const home = join(base, 'home')
mkdirSync(workspace)
const script = join(base, 'many.json')
// ~2 KB a file, in 20 folders, like a change across a project.
const command = `for d in $(seq 0 19); do mkdir -p src/d$d; done; for i in $(seq 1 ${files}); do head -c 2048 /dev/urandom | base64 > src/d$((i % 20))/f$i.txt; done`
writeFileSync(
  script,
  JSON.stringify({
    rules: [
      {
        match: 'many',
        responses: [
          [{ type: 'tool_use', name: 'Bash', input: { command } }],
          [{ type: 'text', text: 'done' }]
        ]
      }
    ]
  })
)

const s = await oneTurnSession(base, workspace, home)
const space = restoreSpaceAt(workspace, s.historyRoot)
const engine = new RewindEngine({ home, store: s.session, space })
const ours: number[] = []
const cp: number[] = []
for (let round = 0; round < rounds; round++) {
  const { runs } = await timeRuns(home, s, ['many'], () => ScriptedModel.load(script))
  const run = runs[0]
  if (run === undefined || run.state !== 'done') throw new Error(JSON.stringify(runs))
  const copy = join(base, `cp-${round}`)
  const t1 = performance.now()
  execFileSync('cp', ['-r', join(run.workspace, 'src'), copy])
  cp.push(performance.now() - t1)
  rmSync(copy, { recursive: true, force: true })
  const t0 = performance.now()
  const adopt = await planAdopt({ home, session: s.session, space, run: run.id, dryRun: false })
  const result = await applyAdopt(home, adopt)
  ours.push(performance.now() - t0)
  if (result.recreated.length + result.restored.length !== files) {
    throw new Error(`adopted ${result.recreated.length + result.restored.length} files`)
  }
  await engine.undo()
}
const f = median(ours)
const b = median(cp)
console.log(
  `adopt of a run that changed ${files} files: ${f.toFixed(0)} ms; cp of them: ${b.toFixed(0)} ms; ratio ${(f / b).toFixed(2)} (target ≤ 2)`
)
s.session.close()
rmSync(base, { recursive: true, force: true })
