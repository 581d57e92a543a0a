// Finding every session on disk: ours (the data home) and those Claude Code, pi and oh-my-pi
// wrote (homes.ts), for one workspace or for every project. Read-only and lazy:
//
// - A project folder is known by the cwd in the first lines of one of its files (its oldest: the
//   one least likely to change), remembered with that file's stamp: a second look costs a stat.
//   Folder names are not trusted for the cwd: every tool's encoding loses characters (/x/a-b and
//   /x/a/b share Claude Code's folder) and oh-my-pi's changed between versions.
// - A workspace's sessions are those of the folders its path encodes to (each tool's rule) and of
//   the folders recognised as its own, each session checked by the cwd it records (real paths
//   compared). They are summarized through the session index (session-index.ts): only files
//   whose size or mtime changed are read, and of a file that grew only its new lines.
// - "All projects" reads no session at all beyond those first lines: a readdir and a stat per
//   file for the counts and the last activity (bench/projects-list.ts).
import { readdirSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import {
  encodeCwd,
  legacyWorkspaceFolders,
  parseSessionFileName,
  realPathOf,
  workspaceFolder
} from '../session/paths'
import { type FileStamp, KeyedFileCache, sameStamp, stampOf } from './file-cache'
import {
  SESSIONS_FOLDER,
  type SessionSource,
  type SourceHomes,
  sessionsRoot,
  sourceHomes
} from './homes'
import { type IndexedFile, SessionIndex, jsonlFilesIn } from './session-index'

export interface DiscoveredSession extends IndexedFile {
  sessionId: string
  createdAt: string
  /** The latest record's time; the file's mtime when no record has one. */
  lastActivity: string
  /** The session's title record, else its first prompt; null when it has neither. */
  title: string | null
}

export interface ProjectSummary {
  /** The working folder the sessions recorded. */
  cwd: string
  sessions: number
  lastActivity: string
  /** Where they are: one entry per tool's project folder. */
  folders: { source: SessionSource; folder: string; sessions: number }[]
}

const FOREIGN: SessionSource[] = ['claude-code', 'pi', 'oh-my-pi']
const ALL: SessionSource[] = ['rewind-studio', ...FOREIGN]

/** Which file of a project folder its cwd was read from, and the cwd (null: none found). */
interface Probe {
  file: string
  cwd: string | null
}

function isProbe(v: unknown): v is Probe {
  if (typeof v !== 'object' || v === null) return false
  const p = v as Record<string, unknown>
  return typeof p.file === 'string' && (p.cwd === null || typeof p.cwd === 'string')
}

export class Sources {
  readonly index: SessionIndex
  private knownHomes: SourceHomes | null
  private probeCache: KeyedFileCache<Probe> | null = null

  /**
   * `persist` false: what is learned is kept in this object only, the caches under the data home
   * are read but not written (a rewind's preview, which must change nothing on disk).
   */
  constructor(private readonly options: { home: string; homes?: SourceHomes; persist?: boolean }) {
    this.knownHomes = options.homes ?? null
    this.index = new SessionIndex(options.home, options.persist ?? true)
  }

  /** Read when first needed (settings.json), so our own sessions are listed without it. */
  get homes(): SourceHomes {
    this.knownHomes ??= sourceHomes(this.options.home)
    return this.knownHomes
  }

  /** Each project folder's cwd, keyed by the folder, stamped with the file it was read from. */
  private get probes(): KeyedFileCache<Probe> {
    this.probeCache ??= new KeyedFileCache(
      this.options.home,
      'projects',
      JSON.stringify(ALL.map((s) => sessionsRoot(this.homes, s))),
      isProbe,
      this.options.persist ?? true
    )
    return this.probeCache
  }

  /**
   * Our sessions of the workspace (both folder layouts) and files there that are none; with
   * `wanted`, only the sessions it keeps, judged by the id in the file's name and its stamp.
   */
  ourSessions(
    cwd: string,
    wanted?: (session: { sessionId: string; stamp: FileStamp }) => boolean
  ): DiscoveredSession[] {
    const real = realPathOf(cwd)
    const realOf = memoRealPath()
    const root = join(this.options.home, SESSIONS_FOLDER['rewind-studio'])
    const folders = [...new Set([workspaceFolder(cwd), ...legacyWorkspaceFolders(cwd)])]
    // Judged before a file is read: a session left out costs no summary.
    const keeps =
      wanted === undefined
        ? undefined
        : (name: string, stamp: FileStamp) => {
            const named = parseSessionFileName(name)
            return named !== null && wanted({ sessionId: named.sessionId, stamp })
          }
    return folders.flatMap((folder) =>
      this.index.folder(join(root, folder), 'rewind-studio', keeps).flatMap((indexed) => {
        const named = parseSessionFileName(indexed.name)
        if (named === null) return []
        // A session of another workspace in a shared (older) folder is not listed here; a file
        // that is no session is, with its problem, so it can be shown (listing.ts does the same).
        const recorded = indexed.summary.cwd
        if (indexed.problem === null && (recorded === null || realOf(recorded) !== real)) return []
        return [{ ...discovered(indexed), ...named }]
      })
    )
  }

  /** The workspace's sessions from every source, newest first. */
  workspaceSessions(cwd: string): DiscoveredSession[] {
    const real = realPathOf(cwd)
    const realOf = memoRealPath()
    const found = this.ourSessions(cwd)
    for (const source of FOREIGN) {
      const root = sessionsRoot(this.homes, source)
      const folders = new Set(encodedFolders(source, cwd).map((name) => join(root, name)))
      for (const project of this.projectFolders(source)) {
        if (project.cwd !== null && realOf(project.cwd) === real) folders.add(project.folder)
      }
      for (const folder of folders) {
        for (const indexed of this.index.folder(folder, source)) {
          const recorded = indexed.summary.cwd
          if (indexed.problem === null && recorded !== null && realOf(recorded) === real) {
            found.push(discovered(indexed))
          }
        }
      }
    }
    this.probes.save()
    return found.sort((a, b) => compare(b.lastActivity, a.lastActivity) || compare(a.file, b.file))
  }

  /** Every project found in the homes, with its session count per tool; newest first. */
  projects(): ProjectSummary[] {
    const realOf = memoRealPath()
    const byCwd = new Map<string, ProjectSummary>()
    for (const source of ALL) {
      for (const folder of subfolders(sessionsRoot(this.homes, source))) {
        const files = sessionFilesOf(folder, source)
        if (files.length === 0) continue
        const cwd = this.folderCwd(folder, source, files)
        if (cwd === null) continue
        const lastMs = Math.max(...files.map((f) => f.stamp.mtimeMs))
        const lastActivity = new Date(lastMs).toISOString()
        const key = realOf(cwd)
        const project = byCwd.get(key) ?? { cwd, sessions: 0, lastActivity, folders: [] }
        project.sessions += files.length
        if (lastActivity > project.lastActivity) project.lastActivity = lastActivity
        project.folders.push({ source, folder, sessions: files.length })
        byCwd.set(key, project)
      }
    }
    this.probes.save()
    return [...byCwd.values()].sort(
      (a, b) => compare(b.lastActivity, a.lastActivity) || compare(a.cwd, b.cwd)
    )
  }

  /**
   * The source of a session file the discovery lists (directly in a project folder of a known
   * home, a regular file named *.jsonl), or null for any other path: a file named by a client
   * is opened only when this says it is one.
   */
  sourceOf(file: string): SessionSource | null {
    let real: string
    try {
      real = realpathSync.native(file)
      if (!real.endsWith('.jsonl') || !statSync(real).isFile()) return null
    } catch {
      return null
    }
    const root = dirname(dirname(real))
    return ALL.find((source) => realPathOf(sessionsRoot(this.homes, source)) === root) ?? null
  }

  /** The project folders of one source with their cwd (null when none could be read). */
  private projectFolders(source: SessionSource): { folder: string; cwd: string | null }[] {
    return subfolders(sessionsRoot(this.homes, source)).map((folder) => ({
      folder,
      cwd: this.folderCwd(folder, source)
    }))
  }

  /**
   * The cwd a project folder's sessions record, read from its oldest file and remembered with
   * that file's stamp. `files` (with stamps) when the caller has them already.
   */
  private folderCwd(
    folder: string,
    source: SessionSource,
    files?: { name: string; stamp: FileStamp }[]
  ): string | null {
    this.probes.refresh()
    const cached = this.probes.get(folder)
    if (cached !== undefined) {
      const probe =
        files?.find((f) => f.name === cached.value.file)?.stamp ??
        stampAt(join(folder, cached.value.file))
      if (probe !== null && sameStamp(probe, cached.stamp)) return cached.value.cwd
      // The same file, only longer (a session going on): its first lines, and cwd, are as read.
      if (probe !== null && probe.ino === cached.stamp.ino && probe.size >= cached.stamp.size) {
        this.probes.set(folder, probe, cached.value)
        return cached.value.cwd
      }
    }
    const candidates = (files ?? sessionFilesOf(folder, source)).sort(
      (a, b) => a.stamp.mtimeMs - b.stamp.mtimeMs
    )
    // A few files at most: a folder whose oldest files hold no cwd is most likely not a project.
    for (const candidate of candidates.slice(0, 3)) {
      let cwd: string | null
      try {
        cwd = this.index.probe(join(folder, candidate.name), source).cwd
      } catch {
        continue
      }
      if (cwd !== null || candidate === candidates.at(-1)) {
        this.probes.set(folder, candidate.stamp, { file: candidate.name, cwd })
        return cwd
      }
    }
    return null
  }
}

function discovered(indexed: IndexedFile): DiscoveredSession {
  const { summary } = indexed
  const lastActivity = summary.lastActivity ?? new Date(indexed.stamp.mtimeMs).toISOString()
  return {
    ...indexed,
    sessionId: summary.sessionId ?? basename(indexed.name, '.jsonl'),
    createdAt: summary.createdAt ?? lastActivity,
    lastActivity,
    // A fork copies its origin's prompts: the list says which of the two is the fork.
    title:
      summary.title ??
      (summary.forked && summary.firstPrompt !== null
        ? `Fork of “${summary.firstPrompt}”`
        : summary.firstPrompt)
  }
}

/** The folder names each tool gives the workspace's path (as given, and through symlinks). */
function encodedFolders(source: SessionSource, cwd: string): string[] {
  const paths = [...new Set([resolve(cwd), realPathOf(cwd)])]
  switch (source) {
    case 'claude-code':
      return paths.map(encodeCwd)
    case 'pi':
      return paths.map((p) => `--${p.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`)
    default:
      // oh-my-pi's names changed between versions (home-relative, absolute, hashed): its
      // folders are recognised by the cwd their sessions record.
      return []
  }
}

/** The session files of a project folder with their stamps (ours: only our file names). */
function sessionFilesOf(
  folder: string,
  source: SessionSource
): { name: string; stamp: FileStamp }[] {
  return jsonlFilesIn(folder).flatMap((name) => {
    if (source === 'rewind-studio' && parseSessionFileName(name) === null) return []
    const stamp = stampAt(join(folder, name))
    return stamp === null ? [] : [{ name, stamp }]
  })
}

function stampAt(file: string): FileStamp | null {
  try {
    return stampOf(statSync(file))
  } catch {
    return null
  }
}

function subfolders(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, entry.name))
      .sort()
  } catch {
    return []
  }
}

function memoRealPath(): (path: string) => string {
  const known = new Map<string, string>()
  return (path) => {
    let real = known.get(path)
    if (real === undefined) {
      real = realPathOf(path)
      known.set(path, real)
    }
    return real
  }
}

function compare(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1
}
