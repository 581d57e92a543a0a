// The git plumbing sharing runs, and nothing else of git: objects written into the workspace's
// repository (fast-import: blobs, trees, commits), refs under our own namespace moved (update-ref
// in one transaction, each from the value it must have), and those refs pushed, fetched and
// listed (push, fetch, ls-remote, for-each-ref); objects read back (ls-tree, cat-file). No
// command here reads or writes the index, the working tree, HEAD or the user's branches: no
// checkout, no add, no commit. Every command runs as `git -C <workspace>` through
// os/child-env.ts runChild: its environment has no API key, its time and its output are bounded,
// and it has no terminal to ask on (a remote that wants a password fails instead of waiting).
// (A parallel run's own repository, under the data home, is made with `init` and filled through
// `run` by parallel/run-workspace.ts: there git does write an index and a working tree.)
//
// Why fast-import rather than `hash-object -w --stdin`, `mktree` and `commit-tree`: hash-object
// writes one object per process (2,000 backups: 2,000 processes, ~3 ms each from a busy Node
// process), and both it and mktree write loose objects, a file each. fast-import takes every
// object of a push on one stdin and writes one pack (loose objects when there are few, git's
// fastimport.unpackLimit). Its commits land on temporary refs of ours, which one update-ref
// transaction turns into the real ones.
import { createHash } from 'node:crypto'
import { isAbsolute } from 'node:path'
import { ChildRunError, type ChildRun, GIT_REPOSITORY_VARIABLES, runChild } from '../os/child-env'
import { CodedError } from '../../shared/coded-error'
import type { ErrorCode } from '../../shared/contract'
import { REMOTE_NAME } from '../../shared/share-views'
import type { GitDirs } from './head-file'

/** A sharing step refused or failed, nothing changed: its code says which kind. */
export class ShareError extends CodedError {
  constructor(code: ErrorCode, message: string) {
    super(code, message)
    this.name = 'ShareError'
  }
}

/** Local plumbing (objects, refs): seconds at most. */
const LOCAL_TIMEOUT_MS = 120_000
/** Talking to a remote (push, fetch, ls-remote): a slow network, a big first push. */
const REMOTE_TIMEOUT_MS = 15 * 60_000
/** Most a listing (ls-tree, for-each-ref, ls-remote, cat-file --batch-check) may print. */
const LISTING_BYTES = 64 * 1024 * 1024

export interface TreeEntry {
  mode: string
  type: 'blob' | 'tree' | 'commit'
  oid: string
  /** Bytes of a blob; null for a tree or a commit (a submodule). */
  size: number | null
  path: string
}

export interface PushReport {
  /** What git said it wrote to the remote ("Writing objects: …"): 0 when it had it all. */
  objects: number
  bytes: number
}

export class GitRepo {
  private constructor(
    /** The folder every command runs in (`git -C`). */
    readonly workspace: string,
    /** The repository's hash: object ids are computed here as git computes them. */
    readonly objectFormat: 'sha1' | 'sha256'
  ) {}

  /** The repository the workspace is in; ShareError `unavailable` when there is none. */
  static async open(workspace: string): Promise<GitRepo> {
    const probe = new GitRepo(workspace, 'sha1')
    const run = await probe.run(['rev-parse', '--show-object-format'], { allowFailure: true })
    if (run.status !== 0) {
      throw new ShareError(
        'unavailable',
        `${workspace} is not in a git repository: a session is shared through the repository's remote (git init, git remote add). Nothing was shared.`
      )
    }
    const format = run.stdout.toString('utf8').trim()
    if (format !== 'sha1' && format !== 'sha256') {
      throw new ShareError(
        'unavailable',
        `The repository uses objects of kind ${format}, which sharing does not know.`
      )
    }
    return new GitRepo(workspace, format)
  }

  /**
   * A new, empty repository in the existing folder `folder` (a run workspace's own, which
   * parallel/run-workspace.ts fills): no template copied (no sample hooks), the same object
   * format as the repository it borrows objects from.
   */
  static async init(folder: string, objectFormat: 'sha1' | 'sha256'): Promise<GitRepo> {
    const repo = new GitRepo(folder, objectFormat)
    await repo.run(['init', '--quiet', '--template=', `--object-format=${objectFormat}`])
    return repo
  }

  /**
   * `git -C <workspace> args`. Throws ShareError naming git's own words when git fails (unless
   * `allowFailure`), or when the run was cut short (time, output).
   */
  async run(
    args: readonly string[],
    options: {
      input?: Iterable<Uint8Array | string>
      remote?: boolean
      maxStdoutBytes?: number
      allowFailure?: boolean
      env?: Record<string, string>
    } = {}
  ): Promise<ChildRun> {
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, GIT_TERMINAL_PROMPT: '0' }
    for (const name of GIT_REPOSITORY_VARIABLES) delete env[name]
    let run: ChildRun
    try {
      run = await runChild('git', ['-C', this.workspace, ...args], {
        cwd: this.workspace,
        env,
        ...(options.input !== undefined ? { input: options.input } : {}),
        timeoutMs: options.remote === true ? REMOTE_TIMEOUT_MS : LOCAL_TIMEOUT_MS,
        maxStdoutBytes: options.maxStdoutBytes ?? LISTING_BYTES
      })
    } catch (error) {
      if (error instanceof ChildRunError) {
        throw new ShareError(
          'unavailable',
          error.reason === 'spawn'
            ? `git could not be run (${error.message}): sharing needs git installed.`
            : `git ${args[0] ?? ''}: ${error.message}. Nothing was shared.`
        )
      }
      throw error
    }
    if (run.status !== 0 && options.allowFailure !== true) {
      throw new ShareError('unavailable', `git ${args[0] ?? ''} failed: ${gitSaid(run.stderr)}`)
    }
    return run
  }

  /** The id git gives a blob of `content` in this repository. */
  blobId(content: Uint8Array): string {
    return createHash(this.objectFormat)
      .update(`blob ${content.length}\0`)
      .update(content)
      .digest('hex')
  }

  /** Which of `oids` the repository does not hold. */
  async missing(oids: readonly string[]): Promise<Set<string>> {
    if (oids.length === 0) return new Set()
    const run = await this.run(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
      input: [oids.join('\n') + '\n']
    })
    const missing = new Set<string>()
    for (const line of lines(run.stdout)) {
      const [oid, kind] = line.split(' ')
      if (kind === 'missing' && oid !== undefined) missing.add(oid)
    }
    return missing
  }

  /** What each of `names` (an object id, `<commit>:<path>`) is: its id, type and size; null: none. */
  async describe(
    names: readonly string[]
  ): Promise<({ oid: string; type: string; size: number } | null)[]> {
    if (names.length === 0) return []
    const run = await this.run(
      ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'],
      { input: [names.join('\n') + '\n'] }
    )
    return lines(run.stdout).map((line) => {
      const [oid = '', type = '', size = ''] = line.split(' ')
      return type === 'missing' || size === '' ? null : { oid, type, size: Number(size) }
    })
  }

  /**
   * Runs fast-import on `stream` (blobs, and commits onto refs of ours): every object in one
   * pack (loose when there are few), trees built in memory. A loose tree object costs a file
   * each: 256 shard trees written by mktree took 0.2–1.3 s on this disk, more than the push.
   */
  async fastImport(stream: Iterable<Uint8Array | string>): Promise<void> {
    await this.run(['fast-import', '--quiet'], { input: stream })
  }

  /**
   * Who a commit made now is by and when, as git writes it (`Name <email> time zone`): the
   * committer git's config names, also the author. ShareError `refused` when git does not know.
   */
  async identity(): Promise<string> {
    const run = await this.run(['var', 'GIT_COMMITTER_IDENT'], { allowFailure: true })
    if (run.status !== 0) {
      throw new ShareError(
        'refused',
        'git does not know who you are, and a shared session names who shared it: set `git config user.name` and `git config user.email`. Nothing was shared.'
      )
    }
    return run.stdout.toString('utf8').trim()
  }

  /**
   * Moves refs of ours all together or not at all (`update-ref --stdin`, one transaction): each
   * update only from the value it must have (null: the ref must not exist), each delete only of
   * the value it has. ShareError `conflict` when one moved meanwhile.
   */
  async updateRefs(
    changes: readonly (
      { ref: string; to: string; from: string | null } | { ref: string; delete: string }
    )[]
  ): Promise<void> {
    const none = '0'.repeat(this.objectFormat === 'sha1' ? 40 : 64)
    const lines = changes.map((c) =>
      'delete' in c
        ? `delete ${c.ref} ${c.delete}\n`
        : `update ${c.ref} ${c.to} ${c.from ?? none}\n`
    )
    const run = await this.run(['update-ref', '-m', 'rewind-studio share', '--stdin'], {
      input: ['start\n', ...lines, 'prepare\n', 'commit\n'],
      allowFailure: true
    })
    if (run.status !== 0) {
      throw new ShareError(
        'conflict',
        `Our refs moved meanwhile (another share of this session?): ${gitSaid(run.stderr)}. Nothing was shared: try again.`
      )
    }
  }

  /** The commit `ref` points at, or null when there is no such ref. */
  async refTarget(ref: string): Promise<string | null> {
    const run = await this.run(['rev-parse', '--verify', '-q', `${ref}^{commit}`], {
      allowFailure: true
    })
    return run.status === 0 ? run.stdout.toString('utf8').trim() : null
  }

  /** The git dir and common dir (worktrees: where the shared refs are), absolute. */
  async gitDirs(): Promise<GitDirs> {
    const run = await this.run([
      'rev-parse',
      '--path-format=absolute',
      '--git-dir',
      '--git-common-dir'
    ])
    const [gitDir = '', commonDir = ''] = lines(run.stdout)
    if (!isAbsolute(gitDir) || !isAbsolute(commonDir)) {
      throw new ShareError('unavailable', `git named no git dir for ${this.workspace}`)
    }
    return { gitDir, commonDir }
  }

  /** HEAD's commit and the branch it is on (null: detached); null before the first commit. */
  async code(): Promise<{ commit: string; branch: string | null } | null> {
    const run = await this.run(['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD'], {
      allowFailure: true
    })
    if (run.status !== 0) return null
    const [commit = '', name = ''] = lines(run.stdout)
    return {
      commit,
      branch: name.startsWith('refs/heads/') ? name.slice('refs/heads/'.length) : null
    }
  }

  /** The commits `refs` point at (those that exist), in one for-each-ref. */
  async refTargets(refs: readonly string[]): Promise<Map<string, string>> {
    const run = await this.run(['for-each-ref', '--format=%(refname) %(objectname)', ...refs])
    const wanted = new Set(refs)
    const found = new Map<string, string>()
    for (const line of lines(run.stdout)) {
      const [name = '', oid = ''] = line.split(' ')
      if (wanted.has(name)) found.set(name, oid)
    }
    return found
  }

  private knownRemotes: Promise<string[]> | null = null

  /** The repository's remotes (asked once per GitRepo). */
  remotes(): Promise<string[]> {
    this.knownRemotes ??= this.run(['remote']).then((run) =>
      lines(run.stdout).filter((name) => REMOTE_NAME.test(name))
    )
    return this.knownRemotes
  }

  /**
   * The remote to use: the one named (which must be one of `git remote`'s), else `origin`, else
   * the only one there is.
   */
  async remote(named: string | undefined): Promise<string> {
    const remotes = await this.remotes()
    if (named !== undefined) {
      if (!remotes.includes(named)) {
        throw new ShareError(
          'not_found',
          `No remote ${JSON.stringify(named)} in this repository (${remotes.length === 0 ? 'it has none' : `it has ${remotes.join(', ')}`}).`
        )
      }
      return named
    }
    if (remotes.includes('origin')) return 'origin'
    if (remotes.length === 1 && remotes[0] !== undefined) return remotes[0]
    throw new ShareError(
      'not_found',
      remotes.length === 0
        ? 'This repository has no remote to share through: git remote add origin URL.'
        : `This repository has several remotes (${remotes.join(', ')}): name one with --remote.`
    )
  }

  /**
   * Pushes `refspecs` to `remote` all or nothing (--atomic where the remote takes it), and says
   * how much git wrote. git's progress lines are its only account of the bytes sent: they are
   * read in the C locale (untranslated), which the push's hooks see too.
   */
  async push(remote: string, refspecs: readonly string[]): Promise<PushReport> {
    const push = (atomic: boolean) =>
      this.run(
        ['push', '--porcelain', '--progress', ...(atomic ? ['--atomic'] : []), remote, ...refspecs],
        { remote: true, allowFailure: true, env: { LC_ALL: 'C', LANGUAGE: 'C' } }
      )
    let run = await push(true)
    if (run.status !== 0 && /does not support --atomic/i.test(run.stderr)) run = await push(false)
    if (run.status !== 0) {
      const rejected = /\[rejected\]|non-fast-forward|fetch first/i.test(
        run.stdout.toString('utf8') + run.stderr
      )
      throw new ShareError(
        rejected ? 'conflict' : 'unavailable',
        rejected
          ? `${remote} holds a share of this session that this one does not follow: ${gitSaid(run.stderr || run.stdout.toString('utf8'))}`
          : `git push to ${remote} failed: ${gitSaid(run.stderr)}`
      )
    }
    return pushReport(run.stderr)
  }

  /** Fetches `refspecs` from `remote` into our own refs: no tags, no FETCH_HEAD, no gc. */
  async fetch(remote: string, refspecs: readonly string[], prune = false): Promise<void> {
    await this.run(
      [
        'fetch',
        '--quiet',
        '--no-tags',
        '--no-write-fetch-head',
        '--no-auto-gc',
        ...(prune ? ['--prune'] : []),
        remote,
        ...refspecs
      ],
      { remote: true }
    )
  }

  /** The refs `remote` has under `pattern` (`refs/x/*`): name → commit. */
  async lsRemote(remote: string, pattern: string): Promise<Map<string, string>> {
    const run = await this.run(['ls-remote', '--refs', remote, pattern], { remote: true })
    const refs = new Map<string, string>()
    for (const line of lines(run.stdout)) {
      const [oid, name] = line.split('\t')
      if (oid !== undefined && name !== undefined) refs.set(name, oid)
    }
    return refs
  }

  /** Our refs under `prefix` with the fields of `format` (for-each-ref's %(…)), tab-separated. */
  async forEachRef(prefix: string, fields: readonly string[]): Promise<string[][]> {
    const run = await this.run(['for-each-ref', `--format=${fields.join('%09')}`, prefix])
    return lines(run.stdout).map((line) => line.split('\t'))
  }

  /** Every entry of `treeish`, recursively, with blob sizes. */
  async lsTree(treeish: string): Promise<TreeEntry[]> {
    const run = await this.run(['ls-tree', '-r', '-t', '-l', '-z', treeish])
    const entries: TreeEntry[] = []
    for (const item of run.stdout.toString('utf8').split('\0')) {
      if (item === '') continue
      const tab = item.indexOf('\t')
      const [mode = '', type = '', oid = '', size = '-'] = item.slice(0, tab).split(/ +/)
      if (type !== 'blob' && type !== 'tree' && type !== 'commit') continue
      entries.push({
        mode,
        type,
        oid,
        size: size === '-' ? null : Number(size),
        path: item.slice(tab + 1)
      })
    }
    return entries
  }

  /** The contents of `oids` (blobs), in order; at most `maxBytes` in all. */
  async readBlobs(oids: readonly string[], maxBytes: number): Promise<Buffer[]> {
    if (oids.length === 0) return []
    const run = await this.run(['cat-file', '--batch'], {
      input: [oids.join('\n') + '\n'],
      maxStdoutBytes: maxBytes + oids.length * 100
    })
    const out = run.stdout
    const contents: Buffer[] = []
    let at = 0
    for (const oid of oids) {
      const end = out.indexOf(10, at)
      const header = out.subarray(at, end).toString('utf8').split(' ')
      if (header[1] !== 'blob' || header[0] !== oid) {
        throw new ShareError(
          'not_found',
          `The shared object ${oid} is not a blob in this repository.`
        )
      }
      const size = Number(header[2])
      contents.push(Buffer.from(out.subarray(end + 1, end + 1 + size)))
      at = end + 1 + size + 1
    }
    return contents
  }

  /** Whether the repository holds commit `oid`. */
  async hasCommit(oid: string): Promise<boolean> {
    const run = await this.run(['cat-file', '-e', `${oid}^{commit}`], { allowFailure: true })
    return run.status === 0
  }
}

function lines(out: Buffer): string[] {
  return out
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
}

/** git's message, its last lines, on one line. */
function gitSaid(stderr: string): string {
  const said = stderr
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter(
      (line) =>
        line !== '' &&
        !/^(Enumerating|Counting|Compressing|Writing|Total|remote: (Counting|Compressing|Total))/.test(
          line
        )
    )
  return said.slice(-3).join(' ') || 'no reason given'
}

const UNITS: Record<string, number> = { bytes: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }

/** What `git push --progress` said it wrote: "Writing objects: 100% (12/12), 1.21 KiB | …". */
export function pushReport(stderr: string): PushReport {
  const writing = [
    ...stderr.matchAll(/Writing objects: +100% \((\d+)\/\d+\), ([\d.]+) (bytes|KiB|MiB|GiB)/g)
  ].at(-1)
  if (writing === undefined) return { objects: 0, bytes: 0 }
  return {
    objects: Number(writing[1]),
    bytes: Math.round(Number(writing[2]) * (UNITS[writing[3] ?? 'bytes'] ?? 1))
  }
}
