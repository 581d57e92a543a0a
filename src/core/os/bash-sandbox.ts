// Bash confined to the workspace (the setting bash.sandbox), with Linux's bubblewrap: the whole
// file system is mounted read-only, the workspace writable again, /tmp is a private tmpfs, the
// command gets its own empty network namespace (no network, not even the host's loopback, nor
// its abstract unix sockets) and its own pid namespace (nothing it starts outlives it, and it
// sees no other process, so no other process's /proc/<pid>/environ either). What it can still
// do: read every file the user can read.
//
// What runs later outside is guarded too, as nothing a command leaves may act for it:
// - Git: every repository in the workspace (sandbox-repos.ts: its `.git` and nested ones, bare
//   ones, a worktree's git directory kept in it) is bound read-only, so no hook or config is
//   changed. Where the workspace is no repository, an empty read-only `.git` and HEAD stand in
//   its root while the command runs (made here, removed after), so it cannot become one
//   (`git init`, or a bare repository's HEAD, objects/ and refs/ in the root). A repository the
//   command made further down is disarmed once it ended (renamed, never deleted).
// - Unix sockets: a path socket on a read-only mount still connects (only regular files,
//   folders and symlinks are refused on one), and a daemon behind one (systemd --user, D-Bus,
//   docker, ssh-agent) runs what it is told outside. The folders that hold them (/run, /var/run,
//   /var/tmp, $XDG_RUNTIME_DIR) are empty tmpfs; every other socket the kernel lists as bound
//   (/proc/net/unix: in the home, in the workspace) has /dev/null bound over it; the variables
//   that name them (child-env.ts, SOCKET_VARIABLES) are unset.
//
// Where bwrap cannot run (not Linux, not installed, user namespaces not allowed) the sandbox is
// unavailable and says why; Bash then refuses to run a command rather than run it unconfined.
import { lstatSync, mkdirSync, readFileSync, realpathSync, rmdirSync } from 'node:fs'
import { unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { escapeControlCharsOneLine } from '../../shared/control-chars'
import { runChildSync, SOCKET_VARIABLES } from './child-env'
import { disarmNewRepos, findRepos, gitdirTarget, identity, type Disarmed } from './sandbox-repos'
import { isRepository, MAX_WALKED_FOLDERS } from './sandbox-repos'

const BWRAP = 'bwrap'

/** Folders that hold the host's sockets (and its shared temporary files), emptied in the sandbox. */
const SOCKET_FOLDERS = ['/tmp', '/var/tmp', '/run', '/var/run', '/var/lock']
/** Sockets covered one by one at most; a host with more is refused rather than half covered. */
const MAX_SOCKETS = 10_000

const NAMESPACES = ['--unshare-net', '--unshare-pid', '--die-with-parent', '--new-session']

/** Whether `path` is `folder` or inside it. */
function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`)
}

function isRealFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory()
  } catch {
    return false
  }
}

/** The socket folders this host has as folders of their own (/var/run is mostly a symlink to /run). */
function socketFolders(): string[] {
  const runtime = process.env.XDG_RUNTIME_DIR
  const folders = SOCKET_FOLDERS.filter(isRealFolder)
  if (runtime?.startsWith('/') === true && isRealFolder(runtime)) {
    if (!folders.some((f) => isUnder(runtime, f))) folders.push(runtime)
  }
  return folders
}

/**
 * The confinement, the same for the probe and for every command. The mounts come first: the
 * workspace is bound after them, so a workspace under /tmp is not hidden by the private /tmp.
 * $XDG_RUNTIME_DIR is made again, empty and private, as programs expect it to exist.
 */
function systemMounts(): string[] {
  const runtime = process.env.XDG_RUNTIME_DIR
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']
  for (const folder of socketFolders()) args.push('--tmpfs', folder)
  if (runtime?.startsWith('/') === true && isRealFolder(runtime)) {
    args.push('--perms', '0700', '--dir', runtime)
  }
  for (const name of SOCKET_VARIABLES) args.push('--unsetenv', name)
  return args
}

/** The probe's answer once it ran (null: the sandbox works). */
let probed: { unavailable: string | null } | undefined

/**
 * Why Bash cannot run sandboxed on this machine, or null when it can. Probed once per process by
 * running `true` in the same sandbox every command gets.
 */
export function bashSandboxUnavailable(): string | null {
  probed ??= { unavailable: probe() }
  return probed.unavailable
}

function probe(): string | null {
  if (process.platform !== 'linux') {
    return `the Bash sandbox uses Linux's bubblewrap, which does not exist on ${process.platform}`
  }
  const run = runChildSync(BWRAP, [...systemMounts(), ...NAMESPACES, '--', 'true'], {
    cwd: '/',
    timeoutMs: 10_000
  })
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    return 'bubblewrap (bwrap) is not installed'
  }
  if (run.error !== undefined || run.status !== 0) {
    const why = run.stderr.trim().split('\n')[0] || run.error?.message || `exit code ${run.status}`
    return `bubblewrap cannot create a sandbox here (${why}); user namespaces may not be allowed on this system`
  }
  return null
}

/**
 * Every path socket bound on this host that the sandbox would still see: the kernel's list
 * (/proc/net/unix, this network namespace's), less those in the emptied folders (but for the
 * workspace, bound again over them). Each is checked to be a socket now: a name in the list is
 * what its program asked for, and a name holding a newline would read as two.
 */
function visibleSockets(root: string, hidden: string[]): string[] {
  let listing: string
  try {
    listing = readFileSync('/proc/net/unix', 'latin1')
  } catch {
    return []
  }
  const paths = new Set<string>()
  for (const line of listing.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path: the path is the rest of the line.
    const path = /^\S+: \S+ \S+ \S+ \S+ \S+ \S+ (\/.*)$/.exec(line)?.[1]
    if (path === undefined) continue
    if (hidden.some((f) => isUnder(path, f)) && !isUnder(path, root)) continue
    paths.add(path)
  }
  const sockets = [...paths].filter((path) => {
    try {
      return lstatSync(path).isSocket()
    } catch {
      return false
    }
  })
  if (sockets.length > MAX_SOCKETS) {
    throw new Error(
      `this host has ${sockets.length} unix sockets outside the folders the sandbox empties, more than the ${MAX_SOCKETS} it covers one by one`
    )
  }
  return sockets
}

/** Placeholders standing in the root of a workspace while commands run: root → users, made. */
const placeholders = new Map<string, { users: number; made: string[] }>()

/**
 * The root's `.git` and HEAD, each made empty where absent, so the read-only binds have
 * something to stand on (one already there, a file of the workspace's own or a placeholder an
 * app killed mid-command left, is bound as it is). Shared by the commands running at once in one
 * root; the last one removes what was made.
 */
function holdPlaceholders(root: string): string[] {
  const git = join(root, '.git')
  const head = join(root, 'HEAD')
  const held = placeholders.get(root)
  if (held !== undefined) {
    held.users += 1
    return [git, head]
  }
  const made: string[] = []
  const makers: [string, () => void][] = [
    [git, () => mkdirSync(git)],
    [head, () => writeFileSync(head, '', { flag: 'wx' })]
  ]
  for (const [path, make] of makers) {
    try {
      make()
      made.push(path)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? ''
      // There already; or a root the user cannot write in, where no command can make it either.
      if (['EEXIST', 'EACCES', 'EPERM', 'EROFS'].includes(code)) continue
      releasePlaceholders(root, made)
      throw error
    }
  }
  placeholders.set(root, { users: 1, made })
  return [git, head]
}

function releasePlaceholders(root: string, made = placeholders.get(root)?.made ?? []): void {
  const held = placeholders.get(root)
  if (held !== undefined && --held.users > 0) return
  placeholders.delete(root)
  for (const path of [...made].reverse()) {
    try {
      // Only as they were made: empty. Something put there meanwhile, from outside, stays.
      if (lstatSync(path).isDirectory()) rmdirSync(path)
      else if (lstatSync(path).size === 0) unlinkSync(path)
    } catch {
      // Not empty, or gone: left as it is.
    }
  }
}

export interface SandboxedBash {
  file: string
  args: string[]
  /**
   * Once the command has ended: the placeholders go, the repositories it made are disarmed.
   * Says what was disarmed, for the command's result.
   */
  finish(): Promise<string[]>
}

/**
 * The bwrap command line that runs `bash -c command` confined to `workspace`, and what to do
 * after it. Refuses (throws, nothing made) where the workspace cannot be checked whole.
 */
export async function sandboxedBash(workspace: string, command: string): Promise<SandboxedBash> {
  const root = realpathSync(workspace)
  const repos = await findRepos(root)
  if (!repos.complete) {
    throw new Error(
      `the workspace has more than ${MAX_WALKED_FOLDERS} folders; the sandbox could not check them all for git repositories`
    )
  }
  const hidden = socketFolders()
  const sockets = visibleSockets(root, hidden)
  const readOnly = new Set<string>()
  for (const path of [...repos.gitEntries.keys(), ...repos.gitDirs.keys()]) {
    readOnly.add(path)
    const target = gitdirTarget(root, path)
    if (target !== null) readOnly.add(target)
  }
  // Where the root is no repository (an empty `.git`, maybe another command's placeholder, is
  // passed over by git, which then looks for HEAD in the root), placeholders stand in for one.
  const rootGit = join(root, '.git')
  const standIns = placeholders.has(root) || !isRepository(rootGit) ? holdPlaceholders(root) : []
  for (const path of standIns) readOnly.add(path)
  const args = [...systemMounts(), '--bind', root, root]
  // -try: a dangling `.git` symlink has nothing to bind.
  for (const path of readOnly) args.push('--ro-bind-try', path, path)
  for (const socket of sockets) args.push('--ro-bind', '/dev/null', socket)
  args.push(...NAMESPACES, '--chdir', root, '--', 'bash', '-c', command)
  let finished = false
  return {
    file: BWRAP,
    args,
    async finish() {
      if (finished) return []
      finished = true
      if (standIns.length > 0) releasePlaceholders(root)
      // Another command's placeholders (still running here) are not the command's doing.
      const before = { ...repos, gitEntries: new Map(repos.gitEntries) }
      if (placeholders.has(root)) before.gitEntries.set(rootGit, identity(rootGit))
      const { disarmed, complete } = await disarmNewRepos(root, before)
      return [
        ...disarmed.map(describeDisarmed),
        ...(complete
          ? []
          : [
              `Warning: the workspace now has more than ${MAX_WALKED_FOLDERS} folders; the sandbox could not check them all for git repositories the command made.`
            ])
      ]
    }
  }
}

function describeDisarmed({ path, renamedTo }: Disarmed): string {
  const shown = escapeControlCharsOneLine
  return `Disarmed a git repository the command made (git runs its hooks and config outside the sandbox): ${shown(path)} was renamed ${shown(renamedTo)}.`
}
