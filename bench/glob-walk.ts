// Glob over a workspace shaped like a real project: 2,000 source files beside a node_modules of
// 40,000 files that .gitignore excludes. Figure: the Glob tool ("**/*.ts", gitignore-aware walk
// that never enters an ignored folder). Baseline, same run, same tree: tinyglobby("**/*.ts"),
// which cannot read .gitignore, so every file is listed and then filtered with `ignore`, which
// is how tinyglobby would have to honour .gitignore.
// Run: npx tsx bench/glob-walk.ts
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ignore from 'ignore'
import { glob } from 'tinyglobby'
import { FileStateTable } from '../src/core/agent/file-state'
import { globTool } from '../src/core/agent/tools/glob'
import type { ToolContext } from '../src/core/agent/tools/tool'

const SOURCE_FILES = 2_000
const IGNORED_FILES = 40_000
const RUNS = 7

const root = mkdtempSync(join(tmpdir(), 'rs-bench-glob-'))
function put(rel: string): void {
  const abs = join(root, rel)
  mkdirSync(join(abs, '..'), { recursive: true })
  writeFileSync(abs, '')
}
writeFileSync(join(root, '.gitignore'), 'node_modules\n')
for (let i = 0; i < SOURCE_FILES; i += 1) put(`src/m${i % 40}/f${i}.ts`)
for (let i = 0; i < IGNORED_FILES; i += 1) put(`node_modules/p${i % 800}/lib/f${i}.ts`)

const ctx: ToolContext = {
  cwd: root,
  fileState: new FileStateTable(),
  guard: {
    beforeWrite: async () => undefined,
    afterWrite: async () => undefined,
    beforeCommand: async () => undefined,
    afterCommand: async () => ({
      created: [],
      modified: [],
      deleted: [],
      untracked: [],
      notBackedUp: [],
      warnings: [],
      unknownOrigin: []
    })
  },
  allowedOutsideRoots: [],
  signal: new AbortController().signal
}

async function medianMs(run: () => Promise<number>, expected: number): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now()
    const count = await run()
    times.push(performance.now() - start)
    if (count !== expected) throw new Error(`expected ${expected} files, got ${count}`)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(RUNS / 2)] ?? Number.NaN
}

const figure = await medianMs(async () => {
  const out = await globTool.execute({ pattern: '**/*.ts' }, ctx)
  return (out.details as { count: number }).count
}, SOURCE_FILES)
const rules = ignore().add('node_modules\n')
const baseline = await medianMs(async () => {
  const all = await glob('**/*.ts', { cwd: root, dot: true })
  return all.filter((p) => !rules.ignores(p)).length
}, SOURCE_FILES)
rmSync(root, { recursive: true, force: true })

console.log(`Glob tool (gitignore-aware walk, mtime sort): ${figure.toFixed(1)} ms`)
console.log(`baseline tinyglobby + ignore filter:          ${baseline.toFixed(1)} ms`)
console.log(`ratio figure/baseline: ${(figure / baseline).toFixed(2)}`)
