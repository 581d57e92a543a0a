// Finding (hardening issue, fuzz test): "Add a fuzz test (fast-check) that feeds random and
// mutated session files [...] to the reader (src/core/session/load.ts), `inspect` and
// `rewind --dry-run --cwd <tempdir>`: no crash (an error message is fine, an uncaught exception /
// stack trace is not), no hang past a time limit, nothing written (the data home and the
// workspace are byte-identical before and after). Keep it fast enough for CI [...] with a fixed
// seed option."
//
// Inputs: the corpus beside the repository (../shared/corpus), our own fixtures, a session built
// with the record builders and a real one with backups (rewind fixture), each mutated line by
// line and field by field (ids pointed at other records or at themselves, types swapped, paths
// outside the workspace, cuts mid-line); records made up from a small pool of ids (cycles,
// missing and self parents, duplicates); and raw bytes. The commands run in one child process
// (session-fuzz-child.ts), each under a time limit.
//
// Issue 26 ("Extend the fuzz test to the new readers and to the channels with every foreign
// format open"; opening a pi session had ended the host): the same cases are also put in the
// homes of Claude Code (as a session and as its sub-agent's transcript), pi and oh-my-pi, and
// the studio `serve` runs lists them and opens each, reading every view of it; and with a
// session of every format shown in turn (ours, Claude Code with its backups, the corpus's pi
// one, oh-my-pi), type-confused payloads hit every channel of the contract. Nothing may escape
// to the process, hang, or answer `internal` (an unexpected exception), and no other tool's
// file is ever written.
//
// FUZZ_SEED=<n> picks the seed (default: a fixed one, so CI runs the same cases every time) and
// FUZZ_RUNS=<n> the number of cases; a failure prints the seed and path that replay it.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSessionText } from '../../src/core/session/load'
import { encodeCwd, sessionFileName, workspaceFolder } from '../../src/core/session/paths'
import type { SessionTree } from '../../src/core/session/tree'
import { ErrorCode, requestChannels, requests } from '../../src/shared/contract'
import { everyFormatHomes } from '../foreign/every-format-homes'
import { newSession } from '../rewind/fixture'
import type { Answer, StudioRun } from './session-fuzz-child'
import { assistant, fileChange, header, jsonl, navigate, rewind, user } from '../session/builders'
import { repoRoot } from '../support/cli'

const SEED = Number(process.env.FUZZ_SEED ?? 20261130)
const RUNS = Number(process.env.FUZZ_RUNS ?? 120)
/** Far above what any of these small files needs, even on a loaded machine: only a hang gets here. */
const COMMAND_LIMIT_MS = 20_000
/** The same for a studio's run through every channel (some thousand requests). */
const STUDIO_LIMIT_MS = 240_000

// ---- the commands, in one child process -------------------------------------------------------

interface CommandRun {
  code: number | null
  stdout: string
  stderr: string
  threw?: string
  /** A studio run's replies. */
  answers?: Answer[]
}

class CliChild {
  private child: ChildProcessWithoutNullStreams | null = null
  private waiting: ((run: CommandRun) => void) | null = null

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(
      process.execPath,
      // A small heap: memory that runs away (an endless walk) ends the process in a moment.
      ['--max-old-space-size=512', '--import', 'tsx', join(__dirname, 'session-fuzz-child.ts')],
      // No key, and a Messages API that refuses at once: a key set through settings:set never
      // reaches the network.
      { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'], env: childEnv() }
    )
    createInterface({ input: child.stdout }).on('line', (line) => {
      const done = this.waiting
      this.waiting = null
      done?.(JSON.parse(line) as CommandRun)
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null
      const done = this.waiting
      this.waiting = null
      done?.({ code: null, stdout: '', stderr, threw: `the process ended (${code ?? signal})` })
    })
    return child
  }

  run(args: string[], home: string): Promise<CommandRun> {
    return this.send({ args, home }, COMMAND_LIMIT_MS)
  }

  /** A studio on `run.cwd` with the other tools' homes `env` names (see session-fuzz-child.ts). */
  studio(run: StudioRun, home: string, env: Record<string, string>): Promise<CommandRun> {
    return this.send({ studio: run, home, env }, STUDIO_LIMIT_MS)
  }

  private send(command: object, limitMs: number): Promise<CommandRun> {
    const child = (this.child ??= this.start())
    return new Promise((done) => {
      const timer = setTimeout(() => {
        this.waiting = null
        this.child = null
        child.kill('SIGKILL')
        done({ code: null, stdout: '', stderr: '', threw: `hung for ${limitMs} ms` })
      }, limitMs)
      this.waiting = (run) => {
        clearTimeout(timer)
        done(run)
      }
      child.stdin.write(`${JSON.stringify(command)}\n`)
    })
  }

  close(): void {
    this.child?.kill('SIGKILL')
    this.child = null
  }
}

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }
  delete env.ANTHROPIC_API_KEY
  return env
}

// ---- inputs ------------------------------------------------------------------------------------

const corpus = resolve(repoRoot, '../shared/corpus')

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(dir, name))
    .sort()
}

/** Every record type either format knows, and some it does not. */
const TYPES = [
  'session',
  'user',
  'assistant',
  'rewind',
  'navigate',
  'branch_summary',
  'custom_message',
  'label',
  'file_change',
  'summary',
  'system',
  'progress',
  'message',
  'model_change',
  'compaction',
  'file-history-snapshot',
  'nonsense'
]

const FIELDS = [
  'uuid',
  'parentUuid',
  'leafUuid',
  'checkpointUuid',
  'targetUuid',
  'fromId',
  'type',
  'message',
  'content',
  'cwd',
  'version',
  'sessionId',
  'path',
  'before',
  'after',
  'mode',
  'timestamp',
  'id',
  'parentId',
  'isSidechain',
  'isMeta',
  'customType',
  'hidden',
  'summary',
  'label',
  'restoreId'
]

/** Values a field is set to: wrong types, empty, huge, paths that leave the workspace. */
const ODD_VALUES: unknown[] = [
  null,
  '',
  0,
  -1,
  1e308,
  true,
  [],
  {},
  [{ type: 'text' }],
  [{ type: 'tool_result', content: [{ type: 'image' }] }],
  { role: 'user', content: 7 },
  'root',
  'x'.repeat(5000),
  '../../outside.txt',
  '/etc/passwd',
  '.git/config',
  'a/../../b',
  '\u0000',
  '2026-13-45T99:99:99Z',
  ...TYPES
]

type FieldValue =
  | { kind: 'id-of-line'; line: number }
  | { kind: 'own-id' }
  | { kind: 'odd'; pick: number }
  | { kind: 'json'; value: unknown }

type Mutation =
  | { kind: 'delete' | 'duplicate'; at: number }
  | { kind: 'swap'; at: number; with: number }
  | { kind: 'cut'; at: number }
  | { kind: 'replace'; at: number; text: string }
  | { kind: 'set'; at: number; field: string; value: FieldValue }

const fieldValue: fc.Arbitrary<FieldValue> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('id-of-line'), line: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('own-id') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('odd'), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('json'), value: fc.jsonValue({ maxDepth: 2 }) })
  }
) as fc.Arbitrary<FieldValue>

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete', 'duplicate'), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap'), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('cut'), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace'), at: fc.nat(), text: fc.string({ maxLength: 80 }) }),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('set'),
      at: fc.nat(),
      field: fc.constantFrom(...FIELDS),
      value: fieldValue
    })
  }
) as fc.Arbitrary<Mutation>

function idOf(line: string | undefined): unknown {
  try {
    const value = JSON.parse(line ?? '') as Record<string, unknown>
    return value.uuid ?? value.id ?? null
  } catch {
    return null
  }
}

function mutate(text: string, mutations: readonly Mutation[]): string {
  const lines = text.split('\n')
  for (const m of mutations) {
    const n = lines.length
    const at = m.at % n
    switch (m.kind) {
      case 'delete':
        lines.splice(at, 1)
        break
      case 'duplicate':
        lines.splice(at, 0, lines[at] ?? '')
        break
      case 'swap': {
        const other = m.with % n
        const a = lines[at] ?? ''
        lines[at] = lines[other] ?? ''
        lines[other] = a
        break
      }
      case 'cut': {
        const line = lines[at] ?? ''
        lines.splice(at, n - at, line.slice(0, m.at % (line.length + 1)))
        break
      }
      case 'replace':
        lines[at] = m.text
        break
      case 'set': {
        let record: unknown
        try {
          record = JSON.parse(lines[at] ?? '')
        } catch {
          break
        }
        if (typeof record !== 'object' || record === null || Array.isArray(record)) break
        const v = m.value
        const value =
          v.kind === 'id-of-line'
            ? idOf(lines[v.line % n])
            : v.kind === 'own-id'
              ? idOf(lines[at])
              : v.kind === 'odd'
                ? ODD_VALUES[v.pick % ODD_VALUES.length]
                : v.value
        lines[at] = JSON.stringify({ ...record, [m.field]: value })
        break
      }
    }
    if (lines.length === 0) lines.push('')
  }
  return lines.join('\n')
}

/** Records made up from a few ids: cycles, self and missing parents, duplicates, leaf moves. */
const IDS = ['a', 'b', 'c', 'd', 'e', 'root', 'WS']
const id = fc.constantFrom(...IDS)
const parent = fc.option(id, { nil: null })
const madeUpRecord: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(id, parent).map(([u, p]) => user(u, p)),
  fc.tuple(id, parent).map(([u, p]) => assistant(u, p)),
  fc.tuple(id, parent, parent, id).map(([u, p, leaf, cp]) => rewind(u, p, leaf, cp)),
  fc.tuple(id, parent, parent).map(([u, p, leaf]) => navigate(u, p, leaf)),
  fc
    .tuple(id, id, fc.constantFrom('config.py', '../x', '/etc/passwd', '.git/HEAD', 'a/b.txt'))
    .map(([u, cp, path]) => fileChange(u, cp, path)),
  fc.tuple(id, parent, id).map(([u, p, from]) => ({
    type: 'branch_summary',
    uuid: u,
    parentUuid: p,
    timestamp: 't',
    fromId: from,
    summary: 's'
  })),
  fc.tuple(id, id).map(([u, target]) => ({
    type: 'label',
    uuid: u,
    parentUuid: null,
    timestamp: 't',
    targetUuid: target,
    label: 'l'
  })),
  fc.constant(header('WS')),
  fc.constant(header('WS2'))
)

type Input =
  /** `ours`: one of our two sessions (else any seed), so many cases get as far as a rewind. */
  | { kind: 'mutated'; ours: boolean; seed: number; mutations: Mutation[] }
  | { kind: 'made-up'; records: unknown[] }
  | { kind: 'bytes'; bytes: Uint8Array }

const input: fc.Arbitrary<Input> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('mutated'),
      ours: fc.boolean(),
      seed: fc.nat(),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 6 })
    })
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('made-up'),
      records: fc.array(madeUpRecord, { maxLength: 25 })
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('bytes'), bytes: fc.uint8Array({ maxLength: 300 }) })
  }
) as fc.Arbitrary<Input>

// ---- checks ------------------------------------------------------------------------------------

/** Every path below `dir` with its kind and content: equal before and after = nothing written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const abs = join(dir, rel)
    const stats = lstatSync(abs)
    out[rel] = stats.isSymbolicLink()
      ? `link ${readlinkSync(abs)}`
      : stats.isDirectory()
        ? `dir ${stats.mode}`
        : stats.isFIFO()
          ? `fifo ${stats.ino}`
          : `file ${stats.mode} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`
  }
  return out
}

const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m

function expectCleanRun(run: CommandRun, what: string): void {
  expect(run.threw, `${what} threw`).toBeUndefined()
  expect([0, 1, 2], `${what} exit code`).toContain(run.code)
  expect(run.stderr, `${what} printed a stack trace`).not.toMatch(STACK_LINE)
  expect(run.stdout, `${what} printed a stack trace`).not.toMatch(STACK_LINE)
}

/** The tree is a forest: every node reached once from the roots; the active path is a path. */
function expectSoundTree(tree: SessionTree): void {
  const seen = new Set<string>()
  const stack = tree.children(null).map((r) => r.uuid)
  while (stack.length > 0) {
    const uuid = stack.pop() as string
    expect(seen.has(uuid), `${uuid} reached twice`).toBe(false)
    seen.add(uuid)
    for (const child of tree.children(uuid)) stack.push(child.uuid)
  }
  expect(seen.size).toBe(tree.size)
  const path = tree.activePath()
  path.forEach((r, i) => {
    if (i > 0) expect(r.parentUuid).toBe(path[i - 1]?.uuid)
  })
}

// ---- the property ------------------------------------------------------------------------------

const child = new CliChild()
/** Our two sessions first (see Input), then the corpus and fixtures. */
const seeds: { name: string; text: string }[] = []
let seedHistory = ''

beforeAll(async () => {
  // A real session with backups: two turns writing files, and a rewind between them.
  const s = await newSession({ 'config.py': 'DEBUG = True\n', 'src/app.ts': 'export {}\n' })
  const first = s.prompt('add TIMEOUT')
  await s.write('config.py', 'DEBUG = True\nTIMEOUT = 30\n')
  s.reply('added')
  s.prompt('new file')
  await s.write('src/util.ts', 'export const x = 1\n')
  s.reply('done')
  await s.engine.rewind(first, 'code')
  await s.close()
  seedHistory = s.history.paths.root
  seeds.push({ name: 'real session', text: readFileSync(s.store.file, 'utf8') })
  seeds.push({
    name: 'built session',
    text: jsonl([
      header('WS'),
      user('u1', null),
      assistant('a1', 'u1'),
      fileChange('f1', 'u1', 'config.py'),
      user('u2', 'a1'),
      assistant('a2', 'u2'),
      rewind('r1', 'a2', 'a1', 'u2'),
      user('u3', 'a1'),
      navigate('n1', 'u3', 'a2'),
      { type: 'label', uuid: 'l1', parentUuid: null, timestamp: 't', targetUuid: 'u1', label: 'x' },
      { type: 'future-type', uuid: 'z1', parentUuid: 'a2', timestamp: 't' }
    ])
  })
  for (const file of [
    ...filesUnder(corpus),
    join(repoRoot, 'test/fixtures/seed-walkthrough.json')
  ]) {
    // Every cwd the corpus records made ours, so each case's file belongs to its workspace.
    const text = readFileSync(file, 'utf8').replace(/"cwd":"(?:[^"\\]|\\.)*"/g, '"cwd":"/work"')
    seeds.push({ name: basename(file), text })
  }
}, 60_000)

afterAll(() => child.close())

function caseText(value: Input, ws: string): Buffer {
  // Headers of made-up sessions name the case's workspace, so rewinds get as far as they can.
  const inWorkspace = (text: string) =>
    text.replaceAll('"cwd":"/work"', `"cwd":${JSON.stringify(ws)}`)
  switch (value.kind) {
    case 'mutated': {
      const seed = seeds[value.seed % (value.ours ? 2 : seeds.length)] as { text: string }
      return Buffer.from(inWorkspace(mutate(seed.text, value.mutations)))
    }
    case 'made-up':
      return Buffer.from(inWorkspace(jsonl([header('WS'), ...value.records])))
    case 'bytes':
      return Buffer.from(value.bytes)
  }
}

describe('session files, random and mutated', () => {
  it(
    'never crash, hang or write: the reader, inspect, rewind --dry-run',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          input,
          fc.integer({ min: 1, max: 3 }),
          fc.constantFrom('both', 'conversation', 'code'),
          async (value, to, mode) => {
            const base = mkdtempSync(join(tmpdir(), 'rs-fuzz-'))
            try {
              const home = join(base, 'home')
              const ws = join(base, 'ws')
              mkdirSync(join(ws, 'src'), { recursive: true })
              writeFileSync(join(ws, 'config.py'), 'DEBUG = False\n')
              writeFileSync(join(ws, 'src/util.ts'), 'export const x = 2\n')
              const folder = workspaceFolder(ws)
              cpSync(seedHistory, join(home, 'file-history', folder), { recursive: true })
              const file = join(
                home,
                'sessions',
                folder,
                sessionFileName('2026-01-01T00:00:00.000Z', '01900000-0000-7000-8000-000000000001')
              )
              mkdirSync(dirname(file), { recursive: true })
              const bytes = caseText(value, ws)
              writeFileSync(file, bytes)
              const before = snapshot(base)
              for (const args of [
                ['inspect', file],
                ['inspect', file, '--json'],
                ['rewind', file, '--to', String(to), '--mode', mode, '--dry-run', '--cwd', ws]
              ]) {
                const run = await child.run(args, home)
                expectCleanRun(run, args.slice(0, 3).join(' '))
                if (args[2] === '--json' && run.code === 0) JSON.parse(run.stdout)
              }
              expect(snapshot(base)).toEqual(before)
              // The commands came back, so the reader does not hang on it: check the tree here.
              expectSoundTree(loadSessionText(bytes.toString('utf8')).tree)
            } finally {
              rmSync(base, { recursive: true, force: true })
            }
          }
        ),
        { seed: SEED, numRuns: RUNS }
      )
    },
    // Shrinking a failure re-runs many cases: room for it, far past what passing takes.
    600_000
  )
})

// ---- the studio ---------------------------------------------------------------------------------

/** Where a case's file goes in the other tools' homes; one of them may get a FIFO instead. */
type Place = 'claude-code' | 'sub-agent' | 'pi' | 'oh-my-pi'
const place = fc.option(fc.constantFrom<Place>('claude-code', 'sub-agent', 'pi', 'oh-my-pi'), {
  nil: null
})

/** Each case's file, where Claude Code (also as its sub-agent's), pi and oh-my-pi keep a session of `ws`. */
function otherToolsHomes(
  base: string,
  ws: string,
  bytes: Buffer,
  fifoAt: Place | null
): Record<string, string> {
  const homes = { claude: join(base, 'claude'), pi: join(base, 'pi'), omp: join(base, 'omp') }
  const put = (where: Place, file: string) => {
    mkdirSync(dirname(file), { recursive: true })
    if (where === fifoAt) execFileSync('mkfifo', [file])
    else writeFileSync(file, bytes)
  }
  const id = '0b3c52a4-1d5e-4c8e-9a51-5f3a5d0c7e13'
  const claudeFile = join(homes.claude, 'projects', encodeCwd(ws), `${id}.jsonl`)
  put('claude-code', claudeFile)
  put('sub-agent', join(claudeFile.replace(/\.jsonl$/, ''), 'subagents', 'agent-fuzz.jsonl'))
  const piFolder = `--${ws.replace(/^\//, '').replace(/\//g, '-')}--`
  put('pi', join(homes.pi, 'sessions', piFolder, `2026-01-01T00-00-00-000Z_${id}.jsonl`))
  put(
    'oh-my-pi',
    join(homes.omp, 'sessions', '-fuzz-1a2b3c4d', `2026-01-01T00-00-00-000Z_${id}.jsonl`)
  )
  return {
    REWIND_STUDIO_CLAUDE_HOME: homes.claude,
    REWIND_STUDIO_PI_HOME: homes.pi,
    REWIND_STUDIO_OMP_HOME: homes.omp
  }
}

const codes = new Set<string>(ErrorCode.options)

/** Nothing escaped, nothing hung, every reply a value with a known code, none `internal`. */
function expectCodedAnswers(run: CommandRun, what: string): void {
  expect(run.threw, `${what} threw`).toBeUndefined()
  expect(run.answers, `${what}: no answers`).toBeDefined()
  for (const answer of run.answers ?? []) {
    if (answer.ok) continue
    const call = `${what}: ${answer.channel} ${JSON.stringify(answer.args)?.slice(0, 200)}`
    expect(codes.has(answer.code ?? ''), `${call}: code ${answer.code}`).toBe(true)
    expect(answer.code, `${call}: ${answer.message}`).not.toBe('internal')
  }
}

/**
 * Removed once all cases ran: the file history goes on making its folders and spare files a
 * moment after it closed (it does not wait for them), so a case's folder is not removed at once.
 */
const studioBases: string[] = []
afterAll(() => {
  for (const base of studioBases) rmSync(base, { recursive: true, force: true, maxRetries: 10 })
})

describe('the studio over every other tool’s home', () => {
  it('opens every case as a session of Claude Code, pi and oh-my-pi (or a FIFO in its place) and reads it through: no crash, hang or write', async () => {
    await fc.assert(
      fc.asyncProperty(input, place, async (value, fifoAt) => {
        const base = realpathSync(mkdtempSync(join(tmpdir(), 'rs-fuzz-studio-')))
        try {
          const ws = join(base, 'ws')
          mkdirSync(ws)
          writeFileSync(join(ws, 'config.py'), 'DEBUG = False\n')
          const env = otherToolsHomes(base, ws, caseText(value, ws), fifoAt)
          const before = snapshot(base)
          const run = await child.studio({ cwd: ws, explore: true }, join(base, 'home'), env)
          expectCodedAnswers(run, 'explore')
          // The studio writes its own data home only: the other tools' files and the
          // workspace are as they were.
          const after = snapshot(base)
          for (const path of Object.keys(after)) if (path.startsWith('home')) delete after[path]
          expect(after).toEqual(before)
        } finally {
          studioBases.push(base)
        }
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 4) }
    )
  }, 600_000)
})

/** Arguments of no shape a channel takes, as whole payloads. */
const CONFUSED_ARGS: unknown[] = [
  null,
  0,
  -1,
  1e308,
  '',
  'x',
  true,
  [],
  {},
  [{}],
  { x: 1 },
  'x'.repeat(100_000),
  nested(2000)
]

/** Values each field of a payload is set to, one field at a time. */
const CONFUSED_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  '',
  'x',
  true,
  [],
  {},
  'x'.repeat(5000),
  '../../outside.txt',
  '/etc/passwd',
  '.git/config',
  '\u0000',
  nested(2000)
]

/** Values that pass validation, by field name ('@…': the shown session's, session-fuzz-child.ts). */
const PLAUSIBLE: Record<string, unknown[]> = {
  sessionId: ['@session'],
  file: ['@file'],
  nodeId: ['@first', '@last', '@prompt'],
  leafUuid: ['@last', null],
  since: [0, 1],
  anchor: ['end', 0],
  before: [10],
  after: [10],
  label: ['fuzz', null],
  restoreFiles: [false, true],
  format: ['md', 'html', 'json'],
  scope: ['branch', 'all'],
  prompt: ['hello'],
  requestId: ['nothing-waits'],
  allow: [true],
  checkpointUuid: ['@prompt'],
  mode: ['both', 'code', 'conversation'],
  summary: [{ mode: 'none' }],
  path: ['config.py', '@cwd'],
  instructions: ['short'],
  a: ['@first', 'current'],
  b: ['@last'],
  cwd: ['@cwd']
}

/** An array in an array... `depth` deep: every reader of a record recurses into it. */
function nested(depth: number): unknown {
  let value: unknown = 'deep'
  for (let i = 0; i < depth; i++) value = [value]
  return value
}

/** The fields of a channel's arguments (none for a channel that takes none or no object). */
function fieldsOf(channel: (typeof requestChannels)[number]): string[] {
  const shape = (requests[channel].args as unknown as { shape?: Record<string, unknown> }).shape
  // The key never reaches settings:set here: it would make the agent call the API.
  return Object.keys(shape ?? {}).filter((field) => field !== 'apiKey')
}

/** Every channel: confused whole payloads, each field confused in turn, plausible ones, random JSON. */
function channelCalls(): { channel: string; args?: unknown }[] {
  const randomJson = fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: SEED, numRuns: 4 })
  return requestChannels.flatMap((channel) => {
    const fields = fieldsOf(channel)
    const plausible = Object.fromEntries(
      fields.filter((f) => PLAUSIBLE[f] !== undefined).map((f) => [f, PLAUSIBLE[f]?.[0]])
    )
    return [
      ...[...CONFUSED_ARGS, ...randomJson].map((args) => ({ channel, args })),
      ...fields.flatMap((field) =>
        [...CONFUSED_VALUES, ...(PLAUSIBLE[field] ?? [])].map((v) => ({
          channel,
          args: { ...plausible, [field]: v }
        }))
      ),
      { channel, args: plausible }
    ]
  })
}

describe('the contract’s channels with every format shown', () => {
  it('answers type-confused payloads on every channel with a code, while ours, Claude Code, pi and oh-my-pi are shown', async () => {
    const homes = everyFormatHomes()
    // Ours: the real session with backups (see beforeAll), as one of this workspace.
    const [first = '', ...rest] = (seeds[0] as { text: string }).text.split('\n')
    const ours = { ...(JSON.parse(first) as { sessionId: string; timestamp: string }) }
    const folder = workspaceFolder(homes.workspace)
    const ourFile = join(
      homes.home,
      'sessions',
      folder,
      sessionFileName(ours.timestamp, ours.sessionId)
    )
    mkdirSync(dirname(ourFile), { recursive: true })
    writeFileSync(ourFile, [JSON.stringify({ ...ours, cwd: homes.workspace }), ...rest].join('\n'))
    cpSync(seedHistory, join(homes.home, 'file-history', folder), { recursive: true })
    const foreign = Object.values(homes.files).map((file) => dirname(dirname(dirname(file))))
    const before = foreign.map(snapshot)
    const calls = channelCalls()
    for (const target of [
      { sessionId: ours.sessionId },
      ...Object.values(homes.files).map((file) => ({ file }))
    ]) {
      const run = await child.studio({ cwd: homes.workspace, target, calls }, homes.home, homes.env)
      expectCodedAnswers(run, JSON.stringify(target))
      expect(run.answers?.length).toBeGreaterThan(calls.length)
    }
    // Never written, whatever the channels were asked: each tool's whole home.
    expect(foreign.map(snapshot)).toEqual(before)
  }, 1_200_000)
})
