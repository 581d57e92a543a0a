// "Summarize up to here" on the last prompt of a 2,000-turn branch, as `cli summarize --up-to`
// does it: open the session, find what the model saw before the prompt, list the files read and
// modified, build the summary request (newest first into the budget), measure the context, append
// the compaction record. The model answers at once (the scripted model's "summary"); the time it
// takes is measured inside it and left out. Baseline, in the same run on the same file: reading
// the branch's records (SessionStore.open read-only and the active path). Target: ratio ≤ 1.2.
// Run: npx tsx bench/summarize-up-to.ts [turns]
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ModelClient } from '../src/core/agent/model/model-client'
import { ScriptedModel } from '../src/core/agent/model/scripted'
import { compactUpTo } from '../src/core/agent/summary/compaction'
import { builtinRequestFrame } from '../src/core/agent/summary/request-frame'
import { DEFAULT_CONTEXT_WINDOW } from '../src/core/agent/summary/tokens'
import { SessionStore } from '../src/core/session/store'
import { writeBranch } from './support/linear-branch'

const TURNS = Number(process.argv[2] ?? 2_000)
const ROUNDS = 9
const dir = mkdtempSync(join(tmpdir(), 'rs-bench-summarize-'))
const source = join(dir, 'source.jsonl')
const lastPrompt = writeBranch(source, TURNS)
const scripted = new ScriptedModel('scripted:bench', {
  summary: '## Goal\nChange the modules.\n## Next steps\nGo on.',
  rules: []
})

function baseline(file: string): number {
  const t = process.hrtime.bigint()
  const store = SessionStore.open(file, { readOnly: true })
  const length = store.tree().activePath().length
  store.close()
  if (length === 0) throw new Error('empty branch')
  return Number(process.hrtime.bigint() - t) / 1e6
}

async function summarizeUpTo(file: string): Promise<{ outside: number; model: number }> {
  let model = 0
  const timed: ModelClient = {
    id: scripted.id,
    complete: async (request, options) => {
      const t = process.hrtime.bigint()
      try {
        return await scripted.complete(request, options)
      } finally {
        model += Number(process.hrtime.bigint() - t) / 1e6
      }
    }
  }
  const t = process.hrtime.bigint()
  const store = SessionStore.open(file)
  const record = await compactUpTo(
    {
      store,
      model: timed,
      cwd: store.cwd,
      window: DEFAULT_CONTEXT_WINDOW,
      frame: () => builtinRequestFrame(store.cwd),
      signal: new AbortController().signal
    },
    lastPrompt
  )
  store.close()
  if (record === null) throw new Error('nothing summarized')
  const total = Number(process.hrtime.bigint() - t) / 1e6
  return { outside: total - model, model }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const bases: number[] = []
const outsides: number[] = []
const models: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  // A fresh copy each round: the compaction appends to the file.
  const file = join(dir, `round-${round}.jsonl`)
  copyFileSync(source, file)
  // Alternating which goes first: each leaves a 9 MB tree for the garbage collector, and the
  // one that runs second pays for collecting it.
  if (round % 2 === 0) bases.push(baseline(file))
  const { outside, model } = await summarizeUpTo(file)
  outsides.push(outside)
  models.push(model)
  if (round % 2 === 1) bases.push(baseline(file))
}
const ms = (x: number) => `${x.toFixed(1)} ms`
console.log(
  `summarize-up-to, ${TURNS}-turn branch (${(statSync(source).size / 1e6).toFixed(1)} MB), ${ROUNDS} rounds, min / median / max:`
)
console.log(
  `  outside the model call: ${ms(Math.min(...outsides))} / ${ms(median(outsides))} / ${ms(Math.max(...outsides))} (model call, left out: ${ms(median(models))})`
)
console.log(
  `  baseline, reading the branch's records: ${ms(Math.min(...bases))} / ${ms(median(bases))} / ${ms(Math.max(...bases))}`
)
console.log(
  `  ratio: ${(Math.min(...outsides) / Math.min(...bases)).toFixed(2)} (min) / ${(median(outsides) / median(bases)).toFixed(2)} (median); target ≤ 1.2`
)
rmSync(dir, { recursive: true, force: true })
