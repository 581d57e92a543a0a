// HEAD's commit and branch read from the repository's files, as `git rev-parse HEAD
// --symbolic-full-name HEAD` answers, without starting git: the commits of a turn read HEAD twice
// per turn (commit-links.ts), and two git processes were most of what that feature cost a turn
// (bench/agent-turn.ts). Only read, never written, never locked: <git dir>/HEAD, then the branch's
// loose ref file, else its line in packed-refs (both in the common dir of a worktree).
//
// Anything this does not know for sure (reftable refs, a ref name outside refs/, a symbolic ref
// chain too long, a file too big or not regular) is 'unknown': the caller asks git then.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { readRegularFileAt } from '../os/read-regular-file'

export interface GitDirs {
  /** The repository's (or this worktree's) git dir: HEAD and per-worktree refs. */
  gitDir: string
  /** Where the shared refs and packed-refs live (the git dir itself outside a worktree). */
  commonDir: string
}

export type HeadState = { commit: string; branch: string | null } | null | 'unknown'

/** Longest HEAD or loose ref file read (a ref is one line of ~70 bytes). */
const REF_FILE_BYTES = 4096
/** Longest packed-refs read: beyond that git is asked. */
const PACKED_REFS_BYTES = 64 * 1024 * 1024
/** Symbolic refs followed at most (git's own limit is 5). */
const MAX_SYMREF_DEPTH = 5

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
/** A branch-like ref name: under refs/, no `..`, no control characters or spaces. */
const REF_NAME = /^refs\/(?:[A-Za-z0-9._@+-]+\/)*[A-Za-z0-9._@+-]+$/

/** Refs kept per worktree (git's rule); every other ref is shared through the common dir. */
function perWorktree(ref: string): boolean {
  return ref === 'HEAD' || /^refs\/(?:bisect|worktree|rewritten)\//.test(ref)
}

/**
 * What HEAD points at: its commit and branch (null branch: detached), null when the branch has
 * no commit yet, 'unknown' when the files do not say for sure.
 */
export function readHead(dirs: GitDirs): HeadState {
  try {
    // A reftable repository keeps its refs in binary tables (git 2.45+): git reads those.
    if (existsSync(join(dirs.commonDir, 'reftable'))) return 'unknown'
    let name = 'HEAD'
    let branch: string | null = null
    const packed = new PackedRefs(join(dirs.commonDir, 'packed-refs'))
    for (let depth = 0; depth <= MAX_SYMREF_DEPTH; depth++) {
      const file = join(perWorktree(name) ? dirs.gitDir : dirs.commonDir, name)
      const text = readSmall(file, REF_FILE_BYTES)
      let value: string | null
      if (text === 'absent') value = name === 'HEAD' ? null : packed.lookup(name)
      else if (text === 'unknown') return 'unknown'
      else value = text.trim()
      if (value === 'unknown') return 'unknown'
      if (value === null) return name === 'HEAD' ? 'unknown' : null // an unborn branch
      if (OID.test(value)) return { commit: value, branch }
      if (!value.startsWith('ref: ')) return 'unknown'
      name = value.slice('ref: '.length).trim()
      if (!REF_NAME.test(name)) return 'unknown'
      // `--symbolic-full-name HEAD` names the ref HEAD points at; only a branch is a branch.
      if (depth === 0) branch = name.startsWith('refs/heads/') ? name.slice(11) : null
    }
    return 'unknown'
  } catch {
    return 'unknown'
  }
}

/** packed-refs, read once when first needed. */
class PackedRefs {
  private lines: Map<string, string> | 'unknown' | null = null

  constructor(private readonly file: string) {}

  lookup(name: string): string | null | 'unknown' {
    if (this.lines === null) {
      const text = readSmall(this.file, PACKED_REFS_BYTES)
      if (text === 'unknown') this.lines = 'unknown'
      else {
        this.lines = new Map()
        if (text !== 'absent') {
          for (const line of text.split('\n')) {
            // "# pack-refs with: …" and "^<oid>" (a peeled tag) lines name no ref.
            if (line === '' || line.startsWith('#') || line.startsWith('^')) continue
            const space = line.indexOf(' ')
            if (space > 0) this.lines.set(line.slice(space + 1), line.slice(0, space))
          }
        }
      }
    }
    if (this.lines === 'unknown') return 'unknown'
    return this.lines.get(name) ?? null
  }
}

/**
 * A small regular file's text; 'absent' when it does not exist; 'unknown' when it is bigger than
 * `max` or no regular file (a FIFO is never waited on: readRegularFileAt).
 */
function readSmall(file: string, max: number): string | 'absent' | 'unknown' {
  let content: Buffer
  try {
    // One byte over the bound tells a file bigger than it.
    content = readRegularFileAt(file, 0, max + 1)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'absent'
    return 'unknown'
  }
  return content.length > max ? 'unknown' : content.toString('utf8')
}
