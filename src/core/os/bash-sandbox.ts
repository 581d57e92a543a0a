// Bash confined to the workspace (the setting bash.sandbox), with Linux's bubblewrap: the whole
// file system is mounted read-only, the workspace writable again (its .git read-only), /tmp is a
// private tmpfs, the command gets its own empty network namespace (no network, not even the
// host's loopback) and its own pid namespace (nothing it starts outlives it, and it sees no
// other process). What it can still do: read every file the user can read.
//
// Where bwrap cannot run (not Linux, not installed, user namespaces not allowed) the sandbox is
// unavailable and says why; Bash then refuses to run a command rather than run it unconfined.
import { existsSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { runChildSync } from './child-env'

const BWRAP = 'bwrap'

/**
 * The confinement, the same for the probe and for every command. The mounts come first: the
 * workspace is bound after them, so a workspace under /tmp is not hidden by the private /tmp.
 */
const SYSTEM_MOUNTS = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp']
const NAMESPACES = ['--unshare-net', '--unshare-pid', '--die-with-parent', '--new-session']

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
  const run = runChildSync(BWRAP, [...SYSTEM_MOUNTS, ...NAMESPACES, '--', 'true'], {
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

/** The bwrap command line that runs `bash -c command` confined to `workspace`. */
export function sandboxedBash(
  workspace: string,
  command: string
): { file: string; args: string[] } {
  const root = realpathSync(workspace)
  const git = join(root, '.git')
  return {
    file: BWRAP,
    args: [
      ...SYSTEM_MOUNTS,
      '--bind',
      root,
      root,
      // A folder or the file a worktree has: the repository's history stays as it was.
      ...(existsSync(git) ? ['--ro-bind', git, git] : []),
      ...NAMESPACES,
      '--chdir',
      root,
      '--',
      'bash',
      '-c',
      command
    ]
  }
}
