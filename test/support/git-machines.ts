// Two machines sharing through git, as the share tests and bench/share-push.ts need them: a bare
// repository as the remote, and two clones, each with a data home of its own. Plus a session of
// many turns written through the real session store and blob store (what the agent's file
// history writes: a prompt, an answer and file changes per turn, each naming its backups), so a
// test can say byte for byte what each file held after each turn.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { BlobStore } from '../../src/core/files/blob-store'
import { historyPaths } from '../../src/core/files/history-paths'
import { ensurePrivateDir } from '../../src/core/os/private-files'
import { SessionStore } from '../../src/core/session/store'

/** `git args` in `cwd`; throws with git's words when it fails. */
export function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', env: gitEnv() })
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${run.stderr}`)
  return run.stdout
}

/** The test's git: no system config, never a prompt, no repository named by the environment. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0'
  }
  delete env.GIT_DIR
  return env
}

export interface Machine {
  /** The clone: the workspace. */
  workspace: string
  /** Its $REWIND_STUDIO_HOME. */
  home: string
}

export interface TwoMachines {
  base: string
  remote: string
  a: Machine
  b: Machine
}

/**
 * A bare remote holding one commit of `files` on main, cloned twice: machine A (Alice) and
 * machine B (Bob), each with its user set and a data home of its own.
 */
export function twoMachines(files: Record<string, string> = SEED_FILES): TwoMachines {
  const base = mkdtempSync(join(tmpdir(), 'rs-share-'))
  const remote = join(base, 'remote.git')
  git(base, 'init', '-q', '--bare', '-b', 'main', remote)
  const seed = join(base, 'seed')
  git(base, 'init', '-q', '-b', 'main', seed)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(seed, path)), { recursive: true })
    writeFileSync(join(seed, path), content)
  }
  git(seed, 'add', '-A')
  git(seed, '-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-qm', 'seed')
  git(seed, 'push', '-q', remote, 'main')
  const clone = (name: string, user: string): Machine => {
    const workspace = join(base, name)
    git(base, 'clone', '-q', remote, workspace)
    git(workspace, 'config', 'user.name', user)
    git(workspace, 'config', 'user.email', `${user.toLowerCase()}@example.com`)
    return { workspace, home: join(base, `home-${name}`) }
  }
  return { base, remote, a: clone('a', 'Alice'), b: clone('b', 'Bob') }
}

export const SEED_FILES: Record<string, string> = {
  'config.py': 'DEBUG = True\nHOST = "localhost"\n',
  'README.md': '# app\n'
}

/**
 * What a share must never change in the user's repository: the working tree's status, HEAD, what
 * the index stages, and every ref outside refs/rewind-studio/.
 */
export function userGitState(workspace: string): {
  status: string
  head: string
  index: string
  refs: string
} {
  return {
    // What is staged (status itself rewrites the index's stat data when a file's stat changed).
    index: git(workspace, 'ls-files', '--stage'),
    status: git(workspace, 'status', '--porcelain', '--untracked-files=all'),
    head: git(workspace, 'rev-parse', 'HEAD'),
    refs: git(workspace, 'for-each-ref', '--format=%(refname) %(objectname)')
      .split('\n')
      .filter((line) => !line.startsWith('refs/rewind-studio/'))
      .join('\n')
  }
}

export interface WrittenSession {
  file: string
  sessionId: string
  /** Each turn's prompt uuid, in order. */
  prompts: string[]
  /** Each turn's last record (its answer). */
  ends: string[]
  /** path → content after each turn (index: the turn). */
  contents: Map<string, string>[]
}

/**
 * A session of `turns` turns in `cwd` (data home `home`), through the real stores: turn t writes
 * `filesPerTurn` files (from `files` paths, in turn) with new content, each change a file_change
 * naming blobs in the workspace's file history. `extra(t)` adds text to turn t's answer.
 */
export function writeTurns(options: {
  home: string
  cwd: string
  turns: number
  filesPerTurn: number
  files: number
  content?: (path: string, turn: number) => string
  answer?: (turn: number) => string
  /** Go on writing an existing session (the file) from turn `from`. */
  resume?: { file: string; from: WrittenSession }
}): WrittenSession {
  const history = historyPaths(options.home, options.cwd)
  for (const folder of [options.home, dirname(history.root), history.root]) ensurePrivateDir(folder)
  const blobs = new BlobStore(history.blobs)
  const store =
    options.resume === undefined
      ? SessionStore.create({ home: options.home, cwd: options.cwd })
      : SessionStore.open(options.resume.file)
  const written: WrittenSession = options.resume?.from ?? {
    file: store.file,
    sessionId: store.sessionId,
    prompts: [],
    ends: [],
    contents: []
  }
  const content =
    options.content ??
    ((path: string, turn: number) =>
      `# ${path} after turn ${turn}\n${'x = 1\n'.repeat(20)}value = ${turn * 7919}\n`)
  const start = written.prompts.length
  for (let t = start; t < start + options.turns; t++) {
    const prompt = store.appendMessage({
      role: 'user',
      content: `turn ${t + 1}: change some files`
    })
    const before = written.contents.at(-1) ?? new Map<string, string>()
    const after = new Map(before)
    const changes = []
    for (let f = 0; f < options.filesPerTurn; f++) {
      const path = `src/file-${String((t * options.filesPerTurn + f) % options.files).padStart(4, '0')}.py`
      const old = after.get(path)
      const next = content(path, t + 1)
      const beforeHash = old === undefined ? null : blobs.put(Buffer.from(old))
      const afterHash = blobs.put(Buffer.from(next), { previous: beforeHash, path })
      after.set(path, next)
      changes.push({
        checkpointUuid: prompt.uuid,
        path,
        before: beforeHash,
        after: afterHash,
        afterMode: 0o644,
        ...(old !== undefined ? { beforeMode: 0o644 } : {}),
        source: 'Write'
      })
    }
    store.appendFileChanges(changes)
    const end = store.appendMessage(
      {
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: options.answer?.(t + 1) ?? `Changed ${options.filesPerTurn} files.`
          }
        ]
      },
      { durable: false }
    )
    written.prompts.push(prompt.uuid)
    written.ends.push(end.uuid)
    written.contents.push(after)
  }
  store.sync()
  store.close()
  return written
}

/**
 * A push of session `id` made by hand in `workspace` (anyone can push anything under our refs):
 * `entries` are the tree's paths with their content and mode, written with git's own commands
 * through a private index, committed by `author` and pushed as the session and summary refs.
 */
export function pushHandMade(
  workspace: string,
  id: string,
  entries: Record<string, { content: string | Buffer; mode?: string }>,
  author = 'Mallory <mallory@example.com>',
  /** Top-level entries git's index refuses (`..`, `.git`): each a folder holding `escape`. */
  oddFolders: string[] = []
): string {
  const index = join(mkdtempSync(join(tmpdir(), 'rs-index-')), 'index')
  const env = { ...gitEnv(), GIT_INDEX_FILE: index }
  const run = (args: string[], input?: string | Buffer) => {
    const result = spawnSync('git', args, { cwd: workspace, env, input })
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.toString()}`)
    return result.stdout.toString().trim()
  }
  for (const [path, { content, mode = '100644' }] of Object.entries(entries)) {
    const oid = run(['hash-object', '-w', '--stdin'], content)
    run(['update-index', '--add', '--cacheinfo', `${mode},${oid},${path}`])
  }
  let tree = run(['write-tree'])
  if (oddFolders.length > 0) {
    const escape = run(
      ['mktree'],
      `100644 blob ${run(['hash-object', '-w', '--stdin'], 'x')}\tescape\n`
    )
    const lines =
      run(['ls-tree', tree]) +
      '\n' +
      oddFolders.map((name) => `040000 tree ${escape}\t${name}\n`).join('')
    tree = run(['mktree'], lines)
  }
  const [name = '', email = ''] = author.split(/ <|>/)
  const who = {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email
  }
  const commit = spawnSync('git', ['commit-tree', tree, '-m', 'hand-made'], {
    cwd: workspace,
    env: { ...env, ...who },
    encoding: 'utf8'
  }).stdout.trim()
  const summaryTree =
    entries['share.json'] === undefined
      ? tree
      : run(
          ['mktree'],
          `100644 blob ${run(['hash-object', '-w', '--stdin'], entries['share.json'].content)}\tshare.json\n`
        )
  const summary = spawnSync('git', ['commit-tree', summaryTree, '-m', 'hand-made'], {
    cwd: workspace,
    env: { ...env, ...who },
    encoding: 'utf8'
  }).stdout.trim()
  run([
    'push',
    '-q',
    '--force',
    'origin',
    `${commit}:refs/rewind-studio/sessions/${id}`,
    `${summary}:refs/rewind-studio/summaries/${id}`
  ])
  return commit
}

/** A log line of the session format: the header, or a record. */
export function jsonl(records: readonly object[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n'
}
