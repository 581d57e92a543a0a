// A cold start over many sessions as a user meets it: `rewind-studio serve` on a workspace of
// 10,000 sessions (50 KB each, our format) with no index yet (index/ and file-history/ removed
// before each run), and its page in Chromium. Printed per run, from the host's spawn: the host
// ready (its URL printed), the page shown (the first frame with a graph node), the list seen
// filling ("Indexing sessions: N of M"), and the list filled (every session listed, nothing
// indexing). Baselines in the same run: readdir + stat of the same files in this process, and a
// Node process doing the same (its wall time: what any listing that notices a change pays), and
// the index built in one synchronous call in this process (what the host's first session:list
// did before it was built in steps). Target (issue 33): the page shown within 1.5 s, the list
// filling as it is built. With BENCH_BASE_ROOT=DIR (a checkout of another build, built), each run
// is alternated with that build's `serve` on the same files: A/B. With BENCH_BACKUPS=1 the
// workspace's file history holds a backup (one no record names, long unused) and its daily
// retention is due: the opening's pruning then reads every log (index/blobs-*.json is gone too).
// Run: npx tsx bench/session-list-cold.ts [sessions] [KB each] [runs]
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { chromiumLaunchOptions } from '../e2e/support/chromium'
import { BlobStore } from '../src/core/files/blob-store'
import { historyPathsAt } from '../src/core/files/history-paths'
import { workspaceFolder } from '../src/core/session/paths'
import { Sources } from '../src/core/sources/discovery'
import { ensureBuild, ensureCliBuild } from '../scripts/ensure-build.mjs'
import { writeManySessions } from '../test/support/many-sessions'
import { timedProcess } from './support/timed-process'

const sessions = Number(process.argv[2] ?? 10_000)
const kilobytes = Number(process.argv[3] ?? 50)
const runs = Number(process.argv[4] ?? 3)
const baseRoot = process.env.BENCH_BASE_ROOT

const base = mkdtempSync(join(tmpdir(), 'rs-bench-cold-'))
const cwd = join(base, 'project')
const home = join(base, 'home')
mkdirSync(cwd)
const dir = writeManySessions(home, cwd, sessions, kilobytes * 1024)
const none = join(base, 'none')
// Empty homes for the other tools: only our sessions are measured.
const env = {
  ...process.env,
  REWIND_STUDIO_HOME: home,
  REWIND_STUDIO_CLAUDE_HOME: none,
  REWIND_STUDIO_PI_HOME: none,
  REWIND_STUDIO_OMP_HOME: none,
  REWIND_STUDIO_CODEX_HOME: none,
  REWIND_STUDIO_GEMINI_HOME: none,
  REWIND_STUDIO_OPENCODE_HOME: none
}
const homes = {
  'rewind-studio': home,
  'claude-code': none,
  pi: none,
  'oh-my-pi': none,
  codex: none,
  'gemini-cli': none,
  opencode: none
}

const ms = (t: bigint) => Number(t) / 1e6
function timeMs(f: () => unknown): number {
  const t = process.hrtime.bigint()
  f()
  return ms(process.hrtime.bigint() - t)
}
const withBackups = process.env.BENCH_BACKUPS === '1'
const coldState = () => {
  rmSync(join(home, 'index'), { recursive: true, force: true })
  rmSync(join(home, 'file-history'), { recursive: true, force: true })
  if (withBackups) {
    const blobs = new BlobStore(
      historyPathsAt(join(home, 'file-history', workspaceFolder(cwd))).blobs
    )
    const old = new Date(0)
    utimesSync(blobs.pathOf(blobs.put(Buffer.from('a backup no record names'))), old, old)
  }
}

// Marks in the page, by the page's clock (performance.now from its navigation): the first
// graph node, the list's "Indexing sessions" status first seen, the list holding every session
// with nothing indexing. Page code as text (this script is typed for Node, without the DOM).
const MARKS = `
  const mark = (name) => {
    const marks = document.documentElement.dataset
    if (marks[name] === undefined) marks[name] = String(performance.now())
  }
  const look = () => {
    if (document.querySelector('.react-flow__node .node-card') !== null) mark('shown')
    const status = document.querySelector('.sessions [role="status"]')
    if (status !== null && status.textContent.startsWith('Indexing sessions')) mark('filling')
    const list = document.querySelector('ul[aria-label="Sessions of this workspace"]')
    if (list !== null && list.getAttribute('aria-busy') !== 'true' && list.children.length >= ${sessions}) mark('filled')
  }
  new MutationObserver(look).observe(document, { childList: true, subtree: true, attributes: true })`

interface ColdRun {
  readyMs: number
  shownMs: number
  fillingMs: number | null
  filledMs: number
}

function serveFrom(root: string): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(
    process.execPath,
    [join(root, 'bin/rewind-studio.mjs'), 'serve', '--cwd', cwd],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  const url = new Promise<string>((done, fail) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(output)?.[0]
      if (found !== undefined) done(found)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => fail(new Error(`serve exited (${code}): ${output}`)))
  })
  return { child, url }
}

async function markOf(page: Page, name: string): Promise<number | null> {
  const value = await page.evaluate<string | undefined>(`document.documentElement.dataset.${name}`)
  return value === undefined ? null : Number(value)
}

async function coldStart(root: string): Promise<ColdRun> {
  coldState()
  const browser = await chromium.launch(chromiumLaunchOptions)
  const start = process.hrtime.bigint()
  const { child, url } = serveFrom(root)
  try {
    const address = await url
    const readyMs = ms(process.hrtime.bigint() - start)
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.addInitScript(MARKS)
    const gotoAt = ms(process.hrtime.bigint() - start)
    await page.goto(address)
    let filled: number | null = null
    for (let waited = 0; filled === null; waited += 100) {
      if (waited > 300_000) throw new Error('the list was not filled within 300 s')
      await page.waitForTimeout(100)
      filled = await markOf(page, 'filled')
    }
    const shown = await markOf(page, 'shown')
    if (shown === null) throw new Error('no graph node was drawn')
    const filling = await markOf(page, 'filling')
    return {
      readyMs,
      shownMs: gotoAt + shown,
      fillingMs: filling === null ? null : gotoAt + filling,
      filledMs: gotoAt + filled
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
    }
    await browser.close()
  }
}

ensureBuild()
ensureCliBuild()
const here = resolve(import.meta.dirname, '..')
const total = readdirSync(dir).reduce((n, name) => n + statSync(join(dir, name)).size, 0)
const statScript = `const fs = require('node:fs'), path = require('node:path'); let n = 0; for (const f of fs.readdirSync(process.argv[1])) n += fs.statSync(path.join(process.argv[1], f)).size; if (n === 0) process.exit(1)`

const stats: number[] = []
const statProcesses: number[] = []
const synchronous: number[] = []
const ours: ColdRun[] = []
const theirs: ColdRun[] = []
const loads: number[] = []
for (let i = 0; i < runs; i++) {
  loads.push(loadavg()[0] ?? NaN)
  stats.push(timeMs(() => readdirSync(dir).map((name) => statSync(join(dir, name)).size)))
  statProcesses.push((await timedProcess(process.execPath, ['-e', statScript, dir])).wallMs)
  coldState()
  synchronous.push(timeMs(() => new Sources({ home, homes }).workspaceSessions(cwd)))
  ours.push(await coldStart(here))
  if (baseRoot !== undefined) theirs.push(await coldStart(baseRoot))
}
loads.push(loadavg()[0] ?? NaN)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const f = (x: number | null) => (x === null ? 'never' : `${x.toFixed(0)} ms`)
const line = (what: string, xs: number[]) =>
  console.log(
    `${what.padEnd(46)} ${xs.map((x) => x.toFixed(0)).join(' / ')} ms (median ${median(xs).toFixed(0)})`
  )
console.log(
  `${sessions} sessions of ${kilobytes} KB (${(total / 1024 / 1024).toFixed(0)} MB)${withBackups ? ', a backup and retention due' : ''}, ${runs} runs, load average ${loads.map((l) => l.toFixed(1)).join(' → ')}`
)
line('baseline readdir + stat (this process)', stats)
line('baseline node readdir + stat, a process (wall)', statProcesses)
line('index built in one synchronous call', synchronous)
const print = (what: string, xs: ColdRun[]) => {
  xs.forEach((r, i) =>
    console.log(
      `${what} run ${i + 1}: host ready ${f(r.readyMs)}, page shown ${f(r.shownMs)}, list seen filling ${f(r.fillingMs)}, list filled ${f(r.filledMs)}`
    )
  )
  const shown = median(xs.map((r) => r.shownMs))
  const filled = median(xs.map((r) => r.filledMs))
  console.log(
    `${what} medians: page shown ${shown.toFixed(0)} ms (target ≤ 1500; ${(shown / median(statProcesses)).toFixed(1)}x the readdir + stat process), list filled ${filled.toFixed(0)} ms (${(filled / median(synchronous)).toFixed(2)}x the synchronous build)`
  )
}
print('this build', ours)
if (baseRoot !== undefined) print(`${baseRoot}`, theirs)
rmSync(base, { recursive: true, force: true })
