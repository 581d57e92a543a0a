// Many files' three-way merges in three git processes instead of one `git merge-file` each: a
// merge of 200 files was 200 processes, 8.4 s on this machine under load, for a preview the issue
// wants under a second. The three sides go into a private object store made for the plan under
// the data home (GIT_DIR set to it: never the user's .git, whose hooks and config are theirs):
//   git fast-import   the blobs, and three commits: base, then ours and theirs on top of it (so
//                     their merge base is base: `merge-tree --merge-base` is git 2.40+);
//   git merge-tree    --write-tree merges them, naming the files that conflict;
//   git cat-file      --batch reads the clean files' merged blobs out of the tree it wrote.
// Each file sits in the trees under its index in the batch ("0", "1", …), not its path: nothing
// of the workspace's names reaches git (no .gitattributes, no rename or directory heuristics),
// and every file is in all three trees (base lacks only those both sides added), so merge-ort
// finds no renames and merges each file on its own, as merge-file does.
//
// A clean merge's bytes are those git merge-file gives (the same xdiff merge; they differ only in
// how conflicting hunks are grouped: merge-file joins two conflicts parted by lines without a
// letter or digit, merge-ort does not). So a file this finds clean is final; a file it finds in
// conflict is merged again by merge-file (merge-file.ts) for its markers and hunk count, exactly
// as before. Checked on every triple in merge-tree.test.ts.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { GIT_REPOSITORY_VARIABLES, runChild } from '../os/child-env'

export interface TextTriple {
  /** null: both sides added the file (an empty base, as merge-file is given). */
  base: Buffer | null
  ours: Buffer
  theirs: Buffer
}

const TIMEOUT_MS = 60_000

/**
 * Git's settings left out (a user's merge.conflictStyle, diff.algorithm or a GIT_CONFIG_* from a
 * hook must not change what a plan shows), and git pointed at `repo` only.
 */
export function privateGitEnv(repo: string | null): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LC_ALL: 'C'
  }
  for (const name of [...GIT_REPOSITORY_VARIABLES, 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT'])
    delete env[name]
  if (repo !== null) env.GIT_DIR = repo
  return env
}

/**
 * The merged content of each triple that merges cleanly, null for each that conflicts, in order.
 * `dir`: a private folder of the data home the caller removes (the store is made in it).
 */
export async function mergeCleanly(
  dir: string,
  triples: readonly TextTriple[]
): Promise<(Buffer | null)[]> {
  if (triples.length === 0) return []
  const repo = mkdtempSync(join(dir, 'objects-'))
  // A repository git accepts needs only these; no `git init` process.
  mkdirSync(join(repo, 'objects'), { mode: 0o700 })
  mkdirSync(join(repo, 'refs'), { mode: 0o700 })
  writeFileSync(join(repo, 'HEAD'), 'ref: refs/heads/base\n', { mode: 0o600 })
  const env = privateGitEnv(repo)
  const git = async (args: string[], input: Iterable<Buffer | string>, maxStdoutBytes: number) => {
    const run = await runChild('git', args, {
      cwd: dir,
      env,
      input,
      timeoutMs: TIMEOUT_MS,
      maxStdoutBytes
    })
    // merge-tree: 0 clean, 1 conflicts; anything else (and any other command's non-zero) failed.
    if (run.status === null || run.status > (args[0] === 'merge-tree' ? 1 : 0)) {
      throw new Error(`git ${args[0]} failed: ${run.stderr.trim() || `status ${run.status}`}`)
    }
    return run.stdout
  }

  await git(['fast-import', '--quiet', '--done'], fastImportStream(triples), 65_536)
  const out = await git(
    [
      'merge-tree',
      '--write-tree',
      '--name-only',
      '--no-messages',
      '-z',
      'refs/heads/ours',
      'refs/heads/theirs'
    ],
    [],
    64 + 16 * triples.length
  )
  const [tree = '', ...conflicted] = out.toString('latin1').split('\0')
  const inConflict = new Set(conflicted.filter((name) => name !== ''))
  const clean = triples.map((_, i) => i).filter((i) => !inConflict.has(String(i)))
  const blobs = await git(
    ['cat-file', '--batch'],
    [clean.map((i) => `${tree}:${i}\n`).join('')],
    clean.reduce((n, i) => {
      const t = triples[i] as TextTriple
      return n + 128 + t.ours.length + t.theirs.length + (t.base?.length ?? 0)
    }, 0)
  )
  const merged: (Buffer | null)[] = triples.map(() => null)
  let at = 0
  for (const i of clean) {
    // "<oid> blob <size>\n<content>\n" per object.
    const eol = blobs.indexOf(0x0a, at)
    const header = blobs.toString('latin1', at, eol).split(' ')
    if (header[1] !== 'blob') throw new Error(`git cat-file: no merged file ${i} (${header[1]})`)
    const size = Number(header[2])
    merged[i] = Buffer.from(blobs.subarray(eol + 1, eol + 1 + size))
    at = eol + 1 + size + 1
  }
  return merged
}

/** base (the files where both sides have one), then ours and theirs, each on base. */
function* fastImportStream(triples: readonly TextTriple[]): Generator<Buffer | string> {
  const mark = (i: number, side: number) => `:${3 * i + side + 1}`
  for (const [i, t] of triples.entries()) {
    for (const [side, content] of [t.base, t.ours, t.theirs].entries()) {
      if (content === null) continue
      yield `blob\nmark ${mark(i, side)}\ndata ${content.length}\n`
      yield content
      yield '\n'
    }
  }
  const commit = (ref: string, side: number) => {
    const files = triples
      .map((t, i) => (side === 0 && t.base === null ? '' : `M 100644 ${mark(i, side)} ${i}\n`))
      .join('')
    const parent = side === 0 ? '' : 'from refs/heads/base\n'
    return `commit refs/heads/${ref}\ncommitter rewind-studio <> 0 +0000\ndata ${ref.length}\n${ref}\n${parent}${files}\n`
  }
  yield commit('base', 0)
  yield commit('ours', 1)
  yield commit('theirs', 2)
  yield 'done\n'
}
