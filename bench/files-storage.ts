// Backup storage of a long session beside a shadow git repository holding the same snapshots
// (one `git add -A && git write-tree && git commit-tree` per turn, as Cline / Roo / OpenCode do).
// Ours: the workspace's blob store (new versions stored as deltas) plus the file_change records
// in the session log. Measured as bytes of content and as disk blocks used, against the shadow
// repository as add/commit leave it (loose objects), and both after their gc (git's
// `gc --aggressive`: one delta-compressed pack; ours: idle blobs packed into one file).
// Target: ratio at most 1.
//   npx tsx bench/files-storage.ts
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_RETENTION, collectGarbage } from '../src/core/files/retention'
import { workspaceFolder } from '../src/core/session/paths'
import { makeWorkspace, openSession } from '../test/rewind/fixture'

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
const gitEnv = { ...process.env, GIT_DIR: join(where.base, 'shadow.git'), GIT_WORK_TREE: where.cwd }
const git = (script: string) =>
  execFileSync('sh', ['-c', script], { cwd: where.cwd, env: gitEnv }).toString().trim()
git('git init -q')
let parent = ''
const snapshot = () => {
  const tree = git('git add -A && git write-tree')
  parent = git(`git commit-tree ${tree} ${parent === '' ? '' : `-p ${parent}`} -m turn`)
}
snapshot()

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
  snapshot()
}

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

const blobs = sizeOf(s.history.paths.blobs)
const records = readFileSync(s.store.file, 'utf8')
  .split('\n')
  .filter((line) => line.includes('"type":"file_change"'))
  .reduce((n, line) => n + line.length + 1, 0)
const ours = { bytes: blobs.bytes + records, blocks: blobs.blocks + records }
const loose = sizeOf(join(where.base, 'shadow.git', 'objects'))
git('git gc -q --aggressive --prune=now')
const packed = sizeOf(join(where.base, 'shadow.git', 'objects'))
await s.close()
// Our gc, with no grace period as git's --prune=now: it packs every idle blob into one file.
const report = await collectGarbage(where.home, workspaceFolder(where.cwd), {
  ...DEFAULT_RETENTION,
  graceHours: 0
})
const gcBlobs = sizeOf(s.history.paths.blobs)
const oursPacked = { bytes: gcBlobs.bytes + records, blocks: gcBlobs.blocks + records }

const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`
console.log(
  `session: ${FILES} files, ${TURNS} turns (3 Write + a Bash sed of 2 files per turn, a new file every 10th)`
)
console.log(
  `file history: ${mb(ours.bytes)} content (${mb(blobs.bytes)} blobs + ${mb(records)} file_change records), ${mb(ours.blocks)} on disk`
)
console.log(
  `shadow git, loose objects as left by add/write-tree/commit-tree: ${mb(loose.bytes)} content, ${mb(loose.blocks)} on disk`
)
console.log(
  `ratio vs loose shadow git: ${(ours.bytes / loose.bytes).toFixed(2)} content, ${(ours.blocks / loose.blocks).toFixed(2)} on disk (target <= 1)`
)
console.log(
  `shadow git after git gc --aggressive (delta-compressed pack): ${mb(packed.bytes)} content, ${mb(packed.blocks)} on disk`
)
console.log(
  `file history after gc (${report.packedBlobs} blobs packed, ${report.deletedBlobs} pruned): ${mb(oursPacked.bytes)} content, ${mb(oursPacked.blocks)} on disk`
)
console.log(
  `ratio, both packed: ${(oursPacked.bytes / packed.bytes).toFixed(2)} content, ${(oursPacked.blocks / packed.blocks).toFixed(2)} on disk (target <= 1)`
)
