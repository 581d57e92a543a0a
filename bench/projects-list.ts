// "All projects" over 5,000 session files of 1 MB (Claude Code's layout: 200 project folders of 25
// sessions, each a real-shaped transcript), through src/core/sources: the first answer cold (each
// project's cwd read from the first lines of one file), then warm in the same process (the app)
// and in a new process (what it learned read from the data home), with the files read by each.
// Baseline in the same run: readdir of every folder + stat of every file (the least a listing
// with counts and last activity can do). Targets: warm < 1 s; a second open reads no file.
// Run: npx tsx bench/projects-list.ts [projects] [sessions per project] [megabytes each] [runs]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeCwd } from '../src/core/session/paths'
import { Sources } from '../src/core/sources/discovery'

const projects = Number(process.argv[2] ?? 200)
const perProject = Number(process.argv[3] ?? 25)
const megabytes = Number(process.argv[4] ?? 1)
const runs = Number(process.argv[5] ?? 5)

const base = mkdtempSync(join(tmpdir(), 'rs-bench-projects-'))
const home = join(base, 'home')
const claudeHome = join(base, 'claude')
const homes = {
  'rewind-studio': home,
  'claude-code': claudeHome,
  pi: join(base, 'none'),
  'oh-my-pi': join(base, 'none'),
  codex: join(base, 'none'),
  'gemini-cli': join(base, 'none'),
  opencode: join(base, 'none')
}

/** Claude Code-shaped records up to `bytes`: prompts, assistant text, tool results. */
function transcript(cwd: string, sessionId: string, bytes: number): string {
  const lines: string[] = []
  let size = 0
  let parent: string | null = null
  for (let n = 0; size < bytes; n++) {
    const uuid = `${sessionId.slice(0, 8)}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`
    const common = { parentUuid: parent, isSidechain: false, cwd, sessionId, version: '2.1.33' }
    const at = new Date(Date.parse('2026-01-01T00:00:00Z') + n * 1000).toISOString()
    const record =
      n % 3 === 0
        ? {
            ...common,
            type: 'user',
            message: { role: 'user', content: `prompt ${n}` },
            uuid,
            timestamp: at
          }
        : n % 3 === 1
          ? {
              ...common,
              type: 'assistant',
              message: {
                id: `msg_${n}`,
                role: 'assistant',
                content: [{ type: 'text', text: 'x'.repeat(800) }]
              },
              uuid,
              timestamp: at
            }
          : {
              ...common,
              type: 'user',
              message: {
                role: 'user',
                content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: 'y'.repeat(2000) }]
              },
              uuid,
              timestamp: at
            }
    const line = `${JSON.stringify(record)}\n`
    lines.push(line)
    size += line.length
    parent = uuid
  }
  return lines.join('')
}

for (let p = 0; p < projects; p++) {
  const cwd = `/home/user/code/project-${p}`
  const folder = join(claudeHome, 'projects', encodeCwd(cwd))
  mkdirSync(folder, { recursive: true })
  for (let s = 0; s < perProject; s++) {
    const id = `${p.toString(16).padStart(4, '0')}${s.toString(16).padStart(4, '0')}-aaaa-4bbb-8ccc-${'d'.repeat(12)}`
    writeFileSync(join(folder, `${id}.jsonl`), transcript(cwd, id, megabytes * 1024 * 1024))
  }
}

function timeMs(f: () => unknown): number {
  const t = process.hrtime.bigint()
  f()
  return Number(process.hrtime.bigint() - t) / 1e6
}

const root = join(claudeHome, 'projects')
const readdirStat = () => {
  let n = 0
  for (const folder of readdirSync(root)) {
    for (const name of readdirSync(join(root, folder))) n += statSync(join(root, folder, name)).size
  }
  return n
}
const total = readdirStat()

const coldSources = new Sources({ home, homes })
let listed = 0
const cold = timeMs(() => (listed = coldSources.projects().length))
const coldReads = { ...coldSources.index.reads }
const warm: number[] = []
const fromDisk: number[] = []
const stats: number[] = []
const reads: number[] = []
for (let i = 0; i < runs; i++) {
  stats.push(timeMs(readdirStat))
  warm.push(timeMs(() => coldSources.projects()))
  const fresh = new Sources({ home, homes })
  fromDisk.push(timeMs(() => fresh.projects()))
  reads.push(fresh.index.reads.files)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const range = (xs: number[]) =>
  `min ${Math.min(...xs).toFixed(0)} / median ${median(xs).toFixed(0)} / max ${Math.max(...xs).toFixed(0)} ms`
console.log(
  `${projects * perProject} session files (${projects} projects), ${(total / 1024 / 1024).toFixed(0)} MB in all; ${runs} runs`
)
console.log(
  `cold, first answer                          ${cold.toFixed(0)} ms, ${listed} projects, ${coldReads.files} files read (${(coldReads.bytes / 1024).toFixed(0)} kB)`
)
console.log(`warm, same process (the app)              ${range(warm)}`)
console.log(
  `warm, new process (learned from data home) ${range(fromDisk)}, files read: ${Math.max(...reads)}`
)
console.log(`baseline readdir + stat of every file     ${range(stats)}`)
console.log(
  `ratio warm / readdir+stat ${(median(warm) / median(stats)).toFixed(2)}, new process / readdir+stat ${(median(fromDisk) / median(stats)).toFixed(2)} (target: warm < 1 s, no file read)`
)
rmSync(base, { recursive: true, force: true })
