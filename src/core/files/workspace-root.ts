// Which folders may be a workspace. The agent writes anywhere inside one and a restore writes and
// deletes files in it, so a folder that holds far more than a project is refused: the file
// system root, the home folder, a folder shared by every user (a sticky, world-writable folder
// such as /tmp itself: other users' and programs' files), a folder holding Rewind Studio's own data or inside it but for
// the demo workspace (its session logs and backups would become files the agent may rewrite), a
// folder inside a .git (git's own files), the kernel's folders (/proc, /sys, /dev) and the
// operating system's own (/etc, /usr/lib…: writable as root, and a rewind there rewrites the
// system; the folders that hold many projects, /usr/src or /opt, only as a whole). Every
// host checks its workspace here before a session is created or a file touched; file history
// and the rewind engine check again, so no path into the core skips it.
import { CodedError } from '../../shared/coded-error'
import { realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { isAbsolute, join, parse, relative, resolve, sep } from 'node:path'
import { RUN_WORKSPACE_NAME, demoWorkspaceDir } from '../session/paths'
import { isInGitFolder, isInside } from './workspace-paths'

export class WorkspaceRefusedError extends CodedError {
  constructor(
    readonly workspace: string,
    reason: string
  ) {
    super(
      'refused',
      `Refused workspace ${JSON.stringify(workspace)}: ${reason}. Nothing was changed.`
    )
    this.name = 'WorkspaceRefusedError'
  }
}

/** The real path where `p` exists (links resolved), else `p` resolved as written. */
function realOrResolved(p: string): string {
  try {
    return realpathSync.native(p)
  } catch {
    return resolve(p)
  }
}

/**
 * Folders that are the kernel's interface, not files (Linux): writing there changes the running
 * system (/proc/sys, /sys), reaches devices (/dev), and reading them can block or never end.
 */
const KERNEL_FOLDERS = ['/proc', '/sys', '/dev']

/**
 * The operating system's own files (Linux and macOS), refused with all they hold: as root they
 * are writable, and the agent would configure, a rewind undo, the running system.
 */
const SYSTEM_TREES = [
  '/etc',
  '/boot',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib32',
  '/usr/lib64',
  '/usr/libexec',
  '/usr/include',
  '/usr/share',
  '/usr/local/bin',
  '/usr/local/sbin',
  '/usr/local/lib',
  '/usr/local/include',
  '/usr/local/share',
  '/var/log',
  '/var/cache',
  '/var/spool',
  '/var/mail',
  '/run',
  '/snap',
  '/System',
  '/Library',
  '/Applications',
  '/private/etc',
  '/private/var/db'
]

/**
 * Folders that hold many projects or users (a Dockerfile's /usr/src/app, /opt/tool, /srv/site,
 * Jenkins' /var/lib/jenkins/workspace/job are workspaces): refused themselves, not what is in them.
 */
const SYSTEM_FOLDERS = [
  '/usr',
  '/usr/local',
  '/usr/src',
  '/usr/local/src',
  '/var',
  '/var/www',
  '/var/lib',
  '/opt',
  '/srv',
  '/home',
  '/root',
  '/mnt',
  '/media',
  '/Users',
  '/Volumes',
  '/private',
  '/private/var'
]

/**
 * Throws WorkspaceRefusedError unless `cwd` may be a workspace. `cwd` must be absolute: a
 * relative one (`.`, or `""` from a session header or an empty --cwd) would mean wherever the
 * process happens to run. `dataHome`: Rewind Studio's data folder ($REWIND_STUDIO_HOME).
 */
export function checkWorkspaceFolder(cwd: string, dataHome: string): void {
  if (cwd === '') throw new WorkspaceRefusedError(cwd, 'no folder was named')
  if (!isAbsolute(cwd)) {
    throw new WorkspaceRefusedError(cwd, 'a workspace is named by its absolute path')
  }
  const real = realOrResolved(cwd)
  if (parse(real).root === real) {
    throw new WorkspaceRefusedError(cwd, 'it is the root of the file system: open a project folder')
  }
  if (real === realOrResolved(homedir())) {
    throw new WorkspaceRefusedError(cwd, 'it is your home folder: open a project folder in it')
  }
  if (isSharedByAllUsers(real)) {
    throw new WorkspaceRefusedError(
      cwd,
      "it is a folder every user shares (sticky and writable by all, like /tmp): other users' and programs' files are in it; open a project folder in it"
    )
  }
  const data = realOrResolved(dataHome)
  if (isInside(real, data)) {
    throw new WorkspaceRefusedError(
      cwd,
      `it holds Rewind Studio's data folder ${dataHome}, whose session logs and backups the agent must not change`
    )
  }
  if (
    isInside(data, real) &&
    !isInside(realOrResolved(demoWorkspaceDir(dataHome)), real) &&
    !isRunWorkspace(data, real)
  ) {
    throw new WorkspaceRefusedError(
      cwd,
      `it is inside Rewind Studio's data folder ${dataHome}, whose session logs and backups the agent must not change`
    )
  }
  // As written too: `/proc/self/cwd` leads to a real folder, but means another one for each
  // process that reads it (and was kept so in the recent list).
  const system = KERNEL_FOLDERS.find(
    (folder) => isInside(folder, real) || isInside(folder, resolve(cwd))
  )
  if (system !== undefined) {
    throw new WorkspaceRefusedError(
      cwd,
      `it is in ${system}, the kernel's view of the system, where a write changes the running system: open a project folder`
    )
  }
  const named = [real, resolve(cwd)]
  const systemFolder =
    SYSTEM_FOLDERS.find((folder) => named.includes(folder)) ??
    SYSTEM_TREES.find((folder) => named.some((p) => isInside(folder, p)))
  if (systemFolder !== undefined) {
    throw new WorkspaceRefusedError(
      cwd,
      `it is ${named.includes(systemFolder) ? '' : 'in '}${systemFolder}, one of the operating system's own folders: open a project folder`
    )
  }
  if (isInGitFolder(real)) {
    throw new WorkspaceRefusedError(cwd, "it is inside a .git folder (git's own files)")
  }
}

/** Sticky (01000) and writable by others (0002): /tmp, /var/tmp, /dev/shm and their like. */
function isSharedByAllUsers(real: string): boolean {
  const mode = statSync(real, { throwIfNoEntry: false })?.mode ?? 0
  return (mode & 0o1002) === 0o1002
}

/**
 * Whether `real` is a parallel run's workspace or inside one: `<data>/runs/<folder>/<run>/work`
 * (session/paths.ts runsDir), which holds a copy of the user's files and none of our data (the
 * run's log and manifest lie beside it, in `<run>/`).
 */
function isRunWorkspace(data: string, real: string): boolean {
  const parts = relative(join(data, 'runs'), real).split(sep)
  return (
    parts.length >= 3 && parts[0] !== '..' && parts[0] !== '' && parts[2] === RUN_WORKSPACE_NAME
  )
}
