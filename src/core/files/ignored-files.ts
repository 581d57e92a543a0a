// Which of the files git ignores file history backs up, and how what it could not back up is
// named. Ignored files are the ones a user cannot get back from git (.env, local data, logs), so
// Bash change detection covers them too, within a budget that keeps the first scan and every turn
// fast: at most `maxFiles` ignored files and `maxBytes` of them are backed up, taken in the order
// a breadth-first walk meets them (a root-level .env before build/deep/x.o). Folders named in
// `skipFolders` (node_modules and the like: big, and rebuilt from a lock file) are never walked
// when git ignores them. Past the budget, ignored files are still looked at (stat only, up to
// MAX_IGNORED_FILES_KNOWN, in at most MAX_IGNORED_FOLDERS folders) so that a command's report can
// say what it changed there that a rewind cannot restore, grouped by folder with counts
// ("build/: 1,240 ignored files"). A file named by any file_change record is always covered,
// budget or not: what was backed up once stays restorable.
import { groupedNumber } from '../../shared/grouped-number'

/** The setting `ignoredFiles` as file history applies it. */
export interface IgnoredFilesPolicy {
  /** Ignored files backed up at most (0: none). */
  maxFiles: number
  /** Their total size at most, in bytes. */
  maxBytes: number
  /** Names of folders never walked when git ignores them. */
  skipFolders: ReadonlySet<string>
}

/** What the settings file may say (settings.ts); anything left out takes its default. */
export interface IgnoredFilesSettings {
  maxFiles?: number | undefined
  maxMb?: number | undefined
  skipFolders?: readonly string[] | undefined
}

export const DEFAULT_IGNORED_MAX_FILES = 2_000
export const DEFAULT_IGNORED_MAX_MB = 20

/** Package caches, virtual environments, build caches: big, many files, rebuilt from sources. */
export const DEFAULT_SKIP_FOLDERS: readonly string[] = [
  'node_modules',
  'bower_components',
  '.pnpm-store',
  '.yarn',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  '.nox',
  '.gradle',
  '.m2',
  'target',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '.cache',
  '.terraform',
  'vendor',
  'Pods',
  'DerivedData'
]

/**
 * Ignored files looked at (stat'ed, each then backed up or not) at most: past it, ignored folders
 * are left unread, and a change there is named by its folder only. About 4 MB of manifest.
 */
export const MAX_IGNORED_FILES_KNOWN = 20_000
/**
 * Ignored folders read and watched at most (skip folders, watched for their own entries, count
 * too): one inotify watch each, and older kernels give a user 8,192 in all.
 */
export const MAX_IGNORED_FOLDERS = 1_000

export function ignoredFilesPolicy(settings: IgnoredFilesSettings = {}): IgnoredFilesPolicy {
  return {
    maxFiles: settings.maxFiles ?? DEFAULT_IGNORED_MAX_FILES,
    maxBytes: Math.round((settings.maxMb ?? DEFAULT_IGNORED_MAX_MB) * 1_000_000),
    skipFolders: new Set(settings.skipFolders ?? DEFAULT_SKIP_FOLDERS)
  }
}

/** Why a command's change to an ignored file is not backed up. */
export type NotBackedUpReason = 'budget' | 'skipped' | 'unread'

/** A command's changes that file history could not back up, one line per folder. */
export interface NotBackedUp {
  /** Workspace-relative, ending in '/' ('./' for the workspace root). */
  folder: string
  /** Files changed there; null when not counted (a folder it never reads). */
  files: number | null
  reason: string
}

/** One not-backed-up change: a file (counted) or a folder seen to change (not counted). */
export interface UnbackedChange {
  /** The folder it is named under (its group, see groupUnbacked). */
  folder: string
  counted: boolean
  reason: NotBackedUpReason
}

export function reasonText(reason: NotBackedUpReason, policy: IgnoredFilesPolicy): string {
  switch (reason) {
    case 'budget':
      return `over the backup budget for ignored files: ${groupedNumber(policy.maxFiles)} files, ${Math.round(policy.maxBytes / 1_000_000)} MB, setting ignoredFiles`
    case 'skipped':
      return 'a folder file history never walks, setting ignoredFiles.skipFolders'
    case 'unread':
      return `past the ${groupedNumber(MAX_IGNORED_FILES_KNOWN)} ignored files or ${groupedNumber(MAX_IGNORED_FOLDERS)} ignored folders file history looks at`
  }
}

/** The changes by folder and reason, folders in path order. */
export function groupUnbacked(
  changes: readonly UnbackedChange[],
  policy: IgnoredFilesPolicy
): NotBackedUp[] {
  const groups = new Map<
    string,
    { folder: string; files: number; counted: boolean; why: NotBackedUpReason }
  >()
  for (const change of changes) {
    const key = `${change.reason}:${change.folder}`
    const group = groups.get(key) ?? {
      folder: change.folder,
      files: 0,
      counted: true,
      why: change.reason
    }
    if (change.counted) group.files++
    else group.counted = false
    groups.set(key, group)
  }
  return [...groups.values()]
    .sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0))
    .map((g) => ({
      folder: g.folder,
      files: g.counted ? g.files : null,
      reason: reasonText(g.why, policy)
    }))
}

/** A folder as reports name it: 'build/', './' for the workspace root. */
export function folderName(rel: string): string {
  return rel === '' ? './' : `${rel}/`
}
