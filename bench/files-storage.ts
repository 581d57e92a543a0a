// Backup storage of long sessions beside a shadow git repository holding the same snapshots (one
// `git add -A && git write-tree && git commit-tree` per turn, as Cline / Roo / OpenCode do, each
// commit made reachable with `git update-ref`, so git's gc keeps the whole history it is compared
// with). Ours: the workspace's blob store plus the file_change records in the session log.
//
// 1. many small files: 100 turns on 2,000 files; as the session leaves it (loose blobs; git's
//    loose objects) and both after their gc (ours: idle blobs packed into one file; git's
//    `gc --aggressive`). Target: ratio at most 1.
// 2. big files often edited: 3 files of 3.3 MB (real source), each edited every turn for 400
//    turns; both after their gc (ours packs, `git gc`) at turns 50, 100, 200 and 400, and the time
//    one turn's snapshot takes (ours: the backups of the turn's 3 Writes; git: add + commit).
//    Target: at most 1.5x git gc at 400 turns, and a flat snapshot time.
//   npx tsx bench/files-storage.ts [small|big]   (both by default)
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_RETENTION, collectGarbage } from '../src/core/rewind/retention'
import { workspaceFolder } from '../src/core/session/paths'
import { makeWorkspace, openSession, type WorkspaceSession } from '../test/rewind/fixture'
import { writeVariedSource } from './support/varied-source'

const only = process.argv[2]
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

interface Size {
  bytes: number
  blocks: number
}
/** Bytes of the files under `dir`, and disk blocks of the files and folders (folders too). */
function sizeOf(dir: string): Size {
  const total: Size = { bytes: 0, blocks: statSync(dir).blocks * 512 }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      const sub = sizeOf(path)
      total.bytes += sub.bytes
      total.blocks += sub.blocks
    } else {
      const st = statSync(path)
      total.bytes += st.size
      total.blocks += st.blocks * 512
    }
  }
  return total
}

/** A shadow git repository of the workspace, one reachable commit per snapshot. */
function shadowGit(where: { base: string; cwd: string }) {
  const env = {
    ...process.env,
    GIT_DIR: join(where.base, 'shadow.git'),
    GIT_WORK_TREE: where.cwd,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@b',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@b'
  }
  const git = (script: string) =>
    execFileSync('sh', ['-c', script], { cwd: where.cwd, env }).toString().trim()
  git('git init -q')
  let parent = ''
  return {
    git,
    objects: join(where.base, 'shadow.git', 'objects'),
    snapshot() {
      const tree = git('git add -A && git write-tree')
      parent = git(`git commit-tree ${tree} ${parent === '' ? '' : `-p ${parent}`} -m turn`)
      // Reachable: without a ref, git's gc drops every commit but none, and keeps no history.
      git(`git update-ref refs/heads/main ${parent}`)
    }
  }
}

/** Bytes of the session's file_change records in its log. */
function recordBytes(s: WorkspaceSession): number {
  return readFileSync(s.store.file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"file_change"'))
    .reduce((n, line) => n + line.length + 1, 0)
}

/** Our gc with no grace period, as git's --prune=now: every idle blob packed. */
async function ourGc(s: WorkspaceSession) {
  return collectGarbage(s.home, workspaceFolder(s.cwd), { ...DEFAULT_RETENTION, graceHours: 0 })
}

async function smallFiles(): Promise<void> {
  const FILES = 2000
  const TURNS = 100
  const source = (i: number, version: number) =>
    Array.from(
      { length: 80 },
      (_, line) =>
        `export function f${i}_${line}(x: number) { return x + ${line === i % 80 ? version : line} }`
    ).join('\n') + '\n'

  const where = makeWorkspace()
  for (let i = 0; i < FILES; i++) {
    mkdirSync(join(where.cwd, `src/m${i % 40}`), { recursive: true })
    writeFileSync(join(where.cwd, `src/m${i % 40}/f${i}.ts`), source(i, 0))
  }
  const s = await openSession(where)
  const shadow = shadowGit(where)
  shadow.snapshot()

  // Each turn: the agent edits 3 files (Write), a Bash command rewrites 2 more, every 10th turn
  // creates a file; a file may be edited again in later turns (hot files), as in a real session.
  for (let turn = 1; turn <= TURNS; turn++) {
    s.prompt(`turn ${turn}`)
    for (let k = 0; k < 3; k++) {
      const i = (turn * 7 + k * 13) % (k === 0 ? 50 : FILES)
      await s.write(`src/m${i % 40}/f${i}.ts`, source(i, turn * 10 + k))
    }
    const a = (turn * 31) % FILES
    const b = (turn * 17 + 5) % FILES
    const extra = turn % 10 === 0 ? ` && echo "export const t = ${turn}" > src/new${turn}.ts` : ''
    await s.bash(
      `sed -i 's/return x + 1 }/return x + ${turn} }/' src/m${a % 40}/f${a}.ts src/m${b % 40}/f${b}.ts${extra}`
    )
    s.reply(`turn ${turn} done`)
    shadow.snapshot()
  }

  const blobs = sizeOf(s.history.paths.blobs)
  const records = recordBytes(s)
  const ours = { bytes: blobs.bytes + records, blocks: blobs.blocks + records }
  const loose = sizeOf(shadow.objects)
  shadow.git('git gc -q --aggressive --prune=now')
  const packed = sizeOf(shadow.objects)
  await s.close()
  const report = await ourGc(s)
  const gcBlobs = sizeOf(s.history.paths.blobs)
  const oursPacked = { bytes: gcBlobs.bytes + records, blocks: gcBlobs.blocks + records }

  console.log(
    `many small files: ${FILES} files, ${TURNS} turns (3 Write + a Bash sed of 2 files per turn, a new file every 10th)`
  )
  console.log(
    `  file history: ${mb(ours.bytes)} content (${mb(blobs.bytes)} blobs + ${mb(records)} file_change records), ${mb(ours.blocks)} on disk`
  )
  console.log(
    `  shadow git, loose objects as left by add/write-tree/commit-tree: ${mb(loose.bytes)} content, ${mb(loose.blocks)} on disk`
  )
  console.log(
    `  ratio vs loose shadow git: ${(ours.bytes / loose.bytes).toFixed(2)} content, ${(ours.blocks / loose.blocks).toFixed(2)} on disk (target <= 1)`
  )
  console.log(
    `  shadow git after git gc --aggressive (history reachable): ${mb(packed.bytes)} content, ${mb(packed.blocks)} on disk`
  )
  console.log(
    `  file history after gc (${report.packedBlobs} blobs packed, ${report.deletedBlobs} pruned): ${mb(oursPacked.bytes)} content, ${mb(oursPacked.blocks)} on disk`
  )
  console.log(
    `  ratio, both packed: ${(oursPacked.bytes / packed.bytes).toFixed(2)} content, ${(oursPacked.blocks / packed.blocks).toFixed(2)} on disk (target <= 1)`
  )
  rmSync(where.base, { recursive: true, force: true, maxRetries: 20, retryDelay: 500 })
}

async function bigFiles(): Promise<void> {
  const FILES = 3
  const BYTES = 3_300_000
  const TURNS = 400
  const MILESTONES = [50, 100, 200, 400]
  // Real source, 3.3 MB per file: consecutive pieces of varied-source.ts's text.
  const where = makeWorkspace()
  const pool = join(where.base, 'pool')
  writeVariedSource(pool, 2000)
  const text = Buffer.concat(
    readdirSync(pool, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name)))
  )
  const lines = Array.from({ length: FILES }, (_, f) =>
    text
      .subarray(f * BYTES, (f + 1) * BYTES)
      .toString('latin1')
      .split('\n')
  )
  const content = (f: number) => (lines[f] ?? []).join('\n')
  for (let f = 0; f < FILES; f++) writeFileSync(join(where.cwd, `big${f}.js`), content(f))
  const s = await openSession(where)
  const shadow = shadowGit(where)
  shadow.snapshot()

  const ours: number[] = []
  const git: number[] = []
  console.log(
    `big files: ${FILES} files of ${mb(BYTES)} (real source), each edited every turn (a line changed, one added), ${TURNS} turns; both gc'd at each milestone`
  )
  for (let turn = 1; turn <= TURNS; turn++) {
    s.prompt(`turn ${turn}`)
    let oursMs = 0
    for (let f = 0; f < FILES; f++) {
      const file = lines[f] ?? []
      const at = (turn * 7919 + f * 104729) % file.length
      file[at] = `${file[at] ?? ''} // edited in turn ${turn}`
      file.splice((at * 31) % file.length, 0, `const turn${turn} = ${turn * f}`)
      // The backups around the Write (before: the current and the new content; after: what
      // landed), not the Write itself.
      const abs = join(where.cwd, `big${f}.js`)
      const next = content(f)
      const before = process.hrtime.bigint()
      await s.history.beforeWrite(abs, 'Write', next)
      oursMs += Number(process.hrtime.bigint() - before) / 1e6
      writeFileSync(abs, next)
      const after = process.hrtime.bigint()
      await s.history.afterWrite(abs, 'Write')
      oursMs += Number(process.hrtime.bigint() - after) / 1e6
    }
    s.reply(`turn ${turn} done`)
    ours.push(oursMs)
    const start = process.hrtime.bigint()
    shadow.snapshot()
    git.push(Number(process.hrtime.bigint() - start) / 1e6)
    if (!MILESTONES.includes(turn)) continue
    shadow.git('git gc -q --prune=now')
    const gitSize = sizeOf(shadow.objects).bytes
    await ourGc(s)
    const oursSize = sizeOf(s.history.paths.blobs).bytes + recordBytes(s)
    // The median of the last 10 turns, and the mean of the last 16 (a whole run of steps, so it
    // includes the turn that starts a new key and reads the old one through its chain).
    const window = (xs: number[]) => median(xs.slice(-10))
    const run = (xs: number[]) => xs.slice(-16).reduce((a, b) => a + b, 0) / 16
    console.log(
      `  turn ${turn}: file history after gc ${mb(oursSize)}, shadow git after git gc ${mb(gitSize)}, ratio ${(oursSize / gitSize).toFixed(2)} (target <= 1.5); snapshot per turn ${window(ours).toFixed(0)} ms median, ${run(ours).toFixed(0)} ms mean (git add + commit ${window(git).toFixed(0)} ms, ${run(git).toFixed(0)} ms)`
    )
  }
  await s.close()
  rmSync(where.base, { recursive: true, force: true, maxRetries: 20, retryDelay: 500 })
}

if (only !== 'big') await smallFiles()
if (only !== 'small') await bigFiles()
