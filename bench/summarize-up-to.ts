// "Summarize up to here" on the last prompt of a 2,000-turn branch, as `cli summarize --up-to`
// does it: open the session, find what the model saw before the prompt, list the files read and
// modified, build the summary request (newest first into the budget), measure the context, append
// the compaction record. The model answers at once (the scripted model's "summary"); the time it
// takes is measured inside it and left out. Baseline, in the same run on the same file: reading
// the branch's records (SessionStore.open read-only and the active path). Target: ratio ≤ 1.2.
// Run: npx tsx bench/summarize-up-to.ts [turns]
import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ModelClient } from '../src/core/agent/model/model-client'
import { ScriptedModel } from '../src/core/agent/model/scripted'
import { compactUpTo } from '../src/core/agent/summary/compaction'
import { builtinRequestFrame } from '../src/core/agent/summary/request-frame'
import { DEFAULT_CONTEXT_WINDOW } from '../src/core/agent/summary/tokens'
import { SESSION_FORMAT_VERSION } from '../src/core/session/records'
import { SessionStore } from '../src/core/session/store'

const TURNS = Number(process.argv[2] ?? 2_000)
const ROUNDS = 9
const dir = mkdtempSync(join(tmpdir(), 'rs-bench-summarize-'))
const source = join(dir, 'source.jsonl')
const words = 'the session tree keeps every branch and the summary replaces the older turns '

/** A linear branch: each turn a prompt, a Read, its result (2 KB), an Edit, its result, an answer. */
function writeBranch(file: string, turns: number): string {
  const fd = openSync(file, 'w')
  let n = 0
  let leaf: string | null = null
  let lastPrompt = ''
  const id = (k: number) => `01900000-0000-7000-8000-${k.toString(16).padStart(12, '0')}`
  const stamp = () => new Date(Date.parse('2026-01-01T00:00:00Z') + n * 1000).toISOString()
  const emit = (record: object) => writeSync(fd, `${JSON.stringify(record)}\n`)
  const node = (type: string, fields: object): string => {
    const uuid = id(++n)
    emit({ type, uuid, parentUuid: leaf, timestamp: stamp(), ...fields })
    leaf = uuid
    return uuid
  }
  emit({
    type: 'session',
    uuid: id(0),
    parentUuid: null,
    timestamp: stamp(),
    version: SESSION_FORMAT_VERSION,
    sessionId: id(0),
    cwd: '/work/app'
  })
  for (let t = 0; t < turns; t++) {
    const file = `src/module${t % 50}.ts`
    lastPrompt = node('user', {
      message: { role: 'user', content: `Turn ${t}: change ${file}. ${words.repeat(2)}` }
    })
    const call = (name: string, input: object) =>
      node('assistant', {
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `toolu_${t}_${name}`, name, input }],
          usage: { input_tokens: 1000 + t, output_tokens: 50 }
        }
      })
    const result = (name: string, text: string) =>
      node('user', {
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${t}_${name}`, content: text }]
        }
      })
    call('Read', { file_path: file })
    result('Read', words.repeat(26))
    call('Edit', { file_path: file, old_string: 'a', new_string: 'b' })
    result('Edit', `The file ${file} has been updated.`)
    emit({
      type: 'file_change',
      uuid: id(++n),
      parentUuid: leaf,
      timestamp: stamp(),
      checkpointUuid: lastPrompt,
      path: file,
      before: 'a'.repeat(64),
      after: 'b'.repeat(64),
      source: 'Edit'
    })
    node('assistant', {
      message: { role: 'assistant', content: [{ type: 'text', text: `Done: ${words.repeat(3)}` }] }
    })
  }
  closeSync(fd)
  return lastPrompt
}

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
