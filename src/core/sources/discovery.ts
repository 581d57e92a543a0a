// Finding every session on disk: ours (the data home) and those Claude Code, pi, oh-my-pi, Codex
// CLI and Gemini CLI wrote (homes.ts), for one workspace or for every project (OpenCode's, rows
// of a database, are found by its reader: foreign/opencode.ts). Read-only and lazy:
//
// - Each tool keeps its files in folders of its own kind (LAYOUTS): a folder per project (ours,
//   Claude Code, pi, oh-my-pi; Gemini CLI's `tmp/<project>/chats/`, whose project root the tool
//   keeps beside it in `.project_root`), or a folder per day holding any project's (Codex CLI's
//   `sessions/YYYY/MM/DD/`, each file saying its cwd).
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
import { readRegularText } from '../os/read-regular-file'
import { basename, dirname, join, resolve } from 'node:path'
import {
  encodeCwd,
  legacyWorkspaceFolders,
  parseSessionFileName,
  realPathOf,
  workspaceFolder
} from '../session/paths'
import { type FileStamp, KeyedFileCache, regularFileStampAt, sameStamp } from './file-cache'
import {
  SESSIONS_FOLDER,
  type SessionSource,
  type SourceHomes,
  openCodeDatabase,
  sessionsRoot,
  sourceHomes
} from './homes'
import { inheritedPrompts } from '../session/foreign/codex'
import { isLegacyGeminiChat } from '../session/foreign/gemini-cli'
import { drawnAsRuns } from '../session/foreign/subagent-nesting'
import { openCodeSessions } from '../session/foreign/opencode'
import { openCodeSessionOf, openCodeStamp } from '../session/foreign/opencode-store'
import { emptySummary } from './session-summary'
import { type IndexedFile, SessionIndex, jsonlFilesIn, sessionFilesIn } from './session-index'
import {
  type FileRead,
  type ListingStep,
  type StepBound,
  SteppedBuilds,
  countedSteps,
  runToEnd
} from './stepped-listing'

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

/** The tools whose session files discovery finds (OpenCode keeps a database, not files). */
type FileSource = Exclude<SessionSource, 'opencode'>
const FOREIGN: FileSource[] = ['claude-code', 'pi', 'oh-my-pi', 'codex', 'gemini-cli']
const ALL: FileSource[] = ['rewind-studio', ...FOREIGN]

/** How a tool's session files lie under its sessions root (homes.ts sessionsRoot). */
interface Layout {
  /** The folders holding session files. */
  folders(root: string, home: string): string[]
  /**
   * Where a folder's sessions' cwd comes from: `probe`, the first lines of its oldest file (all
   * of a folder's sessions are one project's); `file`, each file's own (any project's files);
   * or what the tool keeps beside the folder.
   */
  cwd: 'probe' | 'file' | ((folder: string) => string | null)
  /** Whether `real` (a real path) is a session file of this layout, under the real `root`. */
  holds(root: string, home: string, real: string): boolean
}

const PROJECT_FOLDERS: Layout = {
  folders: (root) => subfolders(root),
  cwd: 'probe',
  holds: (root, _home, real) => dirname(dirname(real)) === root
}

const LAYOUTS: Record<FileSource, Layout> = {
  'rewind-studio': PROJECT_FOLDERS,
  'claude-code': PROJECT_FOLDERS,
  pi: PROJECT_FOLDERS,
  'oh-my-pi': PROJECT_FOLDERS,
  codex: {
    // sessions/YYYY/MM/DD/, and archived_sessions/ beside it (flat).
    folders: (root, home) => [
      ...subfolders(root).flatMap((year) => subfolders(year).flatMap((month) => subfolders(month))),
      join(home, 'archived_sessions')
    ],
    cwd: 'file',
    holds: (root, home, real) =>
      dirname(dirname(dirname(dirname(real)))) === root ||
      dirname(real) === realPathOf(join(home, 'archived_sessions'))
  },
  'gemini-cli': {
    folders: (root) => subfolders(root).map((project) => join(project, 'chats')),
    cwd: (folder) => {
      try {
        return readRegularText(join(dirname(folder), '.project_root'))?.trim() || null
      } catch {
        return null
      }
    },
    holds: (root, _home, real) =>
      basename(dirname(real)) === 'chats' && dirname(dirname(dirname(real))) === root
  }
}

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
    // Judged before a file is read: a session left out costs no summary.
    const keeps =
      wanted === undefined
        ? undefined
        : (name: string, stamp: FileStamp) => {
            const named = parseSessionFileName(name)
            return named !== null && wanted({ sessionId: named.sessionId, stamp })
          }
    const found: DiscoveredSession[] = []
    const take = ourSessionsTaker(cwd, (session) => found.push(session))
    for (const { folder, names } of this.ourFolders(cwd)) {
      runToEnd(this.index.folderSteps(folder, names, 'rewind-studio', take, keeps))
    }
    return found
  }

  /** The workspace's sessions from every source, newest first. */
  workspaceSessions(cwd: string): DiscoveredSession[] {
    return runToEnd(this.workspaceSessionSteps(cwd))
  }

  /** What is being built in steps, per workspace (real path): a second caller joins it. */
  private readonly builds = new SteppedBuilds<DiscoveredSession>()

  /**
   * workspaceSessions built in bounded steps, the event loop given back between them
   * (stepped-listing.ts): what a host does, so it answers every other request while a cold index
   * is built. `onStep` gets each step's sessions but the last's (a build of one step tells it
   * nothing). A call while the workspace's build is going joins it (SteppedBuilds).
   */
  workspaceSessionsInSteps(
    cwd: string,
    onStep?: (step: ListingStep<DiscoveredSession>) => void,
    bound?: StepBound
  ): Promise<DiscoveredSession[]> {
    return this.builds.run(realPathOf(cwd), () => this.workspaceSessionSteps(cwd), onStep, bound)
  }

  /**
   * Stops the workspace's build in steps between two of its steps (its callers' promise rejects,
   * ListingStoppedError): the host is quitting, or the workspace closed. Nothing it had read is
   * written; the index's files stay as the last finished build wrote them.
   */
  stopBuilding(cwd: string): void {
    this.builds.stop(realPathOf(cwd))
  }

  /**
   * The one builder of a workspace's list (stepped-listing.ts), returning workspaceSessions'
   * answer: stops after each file it read. Every folder's names are read first, so each step
   * says how many files of how many are done. Our sessions are in a step as each is found;
   * another tool's once all of that tool's are (a tool that writes a session in several files
   * lists it once, and hides the threads it draws under another).
   */
  *workspaceSessionSteps(
    cwd: string
  ): Generator<ListingStep<DiscoveredSession>, DiscoveredSession[]> {
    const real = realPathOf(cwd)
    const realOf = memoRealPath()
    const ours = this.ourFolders(cwd)
    const foreign = FOREIGN.map((source) => {
      const layout = LAYOUTS[source]
      const folders = new Map<string, string | null>()
      for (const name of encodedFolders(source, cwd))
        folders.set(join(sessionsRoot(this.homes, source), name), null)
      for (const project of this.projectFolders(source)) {
        if (layout.cwd === 'file' || (project.cwd !== null && realOf(project.cwd) === real))
          folders.set(project.folder, project.cwd)
      }
      return {
        source,
        layout,
        folders: [...folders].map(([folder, folderCwd]) => ({
          folder,
          folderCwd,
          names: sessionFilesIn(folder, source)
        }))
      }
    })
    const progress = {
      done: 0,
      total:
        ours.reduce((n, f) => n + f.names.length, 0) +
        foreign.reduce((n, s) => n + s.folders.reduce((m, f) => m + f.names.length, 0), 0)
    }
    const found: DiscoveredSession[] = []
    // What the next step has to say: found since the step before.
    let fresh: DiscoveredSession[] = []
    const steps = (reads: Generator<FileRead, void>) =>
      countedSteps(reads, progress, () => {
        const said = fresh
        fresh = []
        return said
      })
    const takeOurs = ourSessionsTaker(cwd, (session) => {
      found.push(session)
      fresh.push(session)
    })
    for (const { folder, names } of ours) {
      yield* steps(this.index.folderSteps(folder, names, 'rewind-studio', takeOurs))
      progress.done += names.length
    }
    for (const { source, layout, folders } of foreign) {
      const listed: DiscoveredSession[] = []
      for (const { folder, folderCwd, names } of folders) {
        const take = (indexed: IndexedFile) => {
          // A tool that keeps the project's root beside its files names none in them.
          const recorded = typeof layout.cwd === 'function' ? folderCwd : indexed.summary.cwd
          if (indexed.problem === null && recorded !== null && realOf(recorded) === real) {
            listed.push(discovered(indexed, recorded))
          }
        }
        yield* steps(this.index.folderSteps(folder, names, source, take))
        progress.done += names.length
      }
      const sessions =
        source === 'gemini-cli' || source === 'codex' ? newestPerSession(listed) : listed
      for (const session of withoutSubagentThreads(
        sessions,
        (s) => s.sessionId,
        (s) => s.summary.subagentOf
      )) {
        found.push(session)
        fresh.push(session)
      }
    }
    for (const session of this.openCodeSessions()) {
      // A database that cannot be read is named in every workspace's list: it may hold its
      // sessions, and no other word would say they are missing.
      const here = session.summary.cwd !== null && realOf(session.summary.cwd) === real
      if (here || session.problem !== null) found.push(session)
    }
    this.probes.save()
    return found.sort((a, b) => compare(b.lastActivity, a.lastActivity) || compare(a.file, b.file))
  }

  /** Our folders of the workspace (its own, and the older layout's), with their file names. */
  private ourFolders(cwd: string): { folder: string; names: string[] }[] {
    const root = join(this.options.home, SESSIONS_FOLDER['rewind-studio'])
    return [...new Set([workspaceFolder(cwd), ...legacyWorkspaceFolders(cwd)])].map((name) => {
      const folder = join(root, name)
      return { folder, names: jsonlFilesIn(folder) }
    })
  }

  private openCodeCache: { stamp: string; listed: DiscoveredSession[] } | null = null

  /**
   * OpenCode's sessions, from its database (and older JSON files), read again only when its
   * stamp moved: rows, not files, so not through the index (its reader summarizes them).
   */
  private openCodeSessions(): DiscoveredSession[] {
    const db = openCodeDatabase(this.homes)
    const stamp = openCodeStamp(db)
    if (this.openCodeCache?.stamp === stamp) return this.openCodeCache.listed
    const { sessions, problem } = openCodeSessions(db)
    const listed = sessions.map((s): DiscoveredSession => {
      const lastActivity = s.lastActivity ?? s.createdAt ?? new Date(0).toISOString()
      return {
        file: s.file,
        name: basename(s.file),
        source: 'opencode',
        stamp: { size: 0, mtimeMs: Date.parse(lastActivity) || 0, ino: 0 },
        summary: {
          ...emptySummary(),
          sessionId: s.sessionId,
          cwd: s.cwd,
          createdAt: s.createdAt,
          lastActivity,
          title: s.title,
          titleRank: s.title === null ? 0 : 1,
          firstPrompt: s.firstPrompt,
          prompts: s.prompts
        },
        problem: null,
        sessionId: s.sessionId,
        createdAt: s.createdAt ?? lastActivity,
        lastActivity,
        title: s.title ?? s.firstPrompt
      }
    })
    if (problem !== null) listed.push(unreadableDatabase(db, problem))
    this.openCodeCache = { stamp, listed }
    return listed
  }

  /** Every project found in the homes, with its session count per tool; newest first. */
  projects(): ProjectSummary[] {
    const realOf = memoRealPath()
    const byCwd = new Map<string, ProjectSummary>()
    const add = (source: SessionSource, folder: string, cwd: string, lasts: string[]) => {
      const lastActivity = lasts.reduce((a, b) => (b > a ? b : a), '')
      const key = realOf(cwd)
      const project = byCwd.get(key) ?? { cwd, sessions: 0, lastActivity, folders: [] }
      project.sessions += lasts.length
      if (lastActivity > project.lastActivity) project.lastActivity = lastActivity
      project.folders.push({ source, folder, sessions: lasts.length })
      byCwd.set(key, project)
    }
    const openCode = new Map<string, DiscoveredSession[]>()
    for (const session of this.openCodeSessions()) {
      const cwd = session.summary.cwd
      if (cwd !== null) openCode.set(cwd, [...(openCode.get(cwd) ?? []), session])
    }
    for (const [cwd, sessions] of openCode) {
      add(
        'opencode',
        openCodeDatabase(this.homes),
        cwd,
        sessions.map((s) => s.lastActivity)
      )
    }
    for (const source of ALL) {
      const layout = LAYOUTS[source]
      const counted: Counted[] = []
      for (const folder of layout.folders(sessionsRoot(this.homes, source), this.homes[source])) {
        if (layout.cwd === 'file' || SPANS_FILES.has(source)) {
          // Each file counted where it says it ran (from its summary), or where its folder's tool
          // keeps the root; a session of several files by its id.
          const folderCwd = typeof layout.cwd === 'function' ? layout.cwd(folder) : null
          for (const indexed of this.index.folder(folder, source)) {
            const cwd = folderCwd ?? indexed.summary.cwd
            if (indexed.problem !== null || cwd === null) continue
            const session = indexed.summary.sessionId ?? indexed.file
            const last =
              indexed.summary.lastActivity ?? new Date(indexed.stamp.mtimeMs).toISOString()
            const { subagentOf } = indexed.summary
            counted.push({ folder, cwd, session, last, subagentOf })
          }
          continue
        }
        const files = sessionFilesOf(folder, source)
        if (files.length === 0) continue
        const cwd = this.folderCwd(folder, source, files)
        if (cwd === null) continue
        // Not every file is read for this list (one head per project): a file the index read
        // at its stamp counts as the workspace's list shows it (another tool's file naming no
        // cwd is no session there; its last activity is its records'), any other by itself (an
        // empty file is no session of any tool's; its last activity is when it was written).
        const knownHere = this.index.knownIn(folder)
        for (const f of files) {
          const known = knownHere(f.name, f.stamp)
          const mtime = new Date(f.stamp.mtimeMs).toISOString()
          if (source !== 'rewind-studio') {
            if (known === undefined ? f.stamp.size === 0 : known.summary.cwd === null) continue
          }
          const last = known?.summary.lastActivity ?? mtime
          counted.push({ folder, cwd, session: f.name, last })
        }
      }
      const sessions = withoutSubagentThreads(
        onePerSession(counted, realOf),
        (c) => c.session,
        (c) => c.subagentOf
      )
      for (const { folder, cwd, lasts } of perFolder(sessions)) add(source, folder, cwd, lasts)
    }
    this.probes.save()
    return [...byCwd.values()].sort(
      (a, b) => compare(b.lastActivity, a.lastActivity) || compare(a.cwd, b.cwd)
    )
  }

  /**
   * Whether `file` is one of the sessions discovery lists for `cwd`: a session's own word for
   * where it ran is trusted only then (a rescue restore writes there).
   */
  listsFor(file: string, cwd: string): boolean {
    const real = realPathOf(file)
    return this.workspaceSessions(cwd).some((s) => realPathOf(s.file) === real)
  }

  /**
   * The source of a session file the discovery lists (directly in a project folder of a known
   * home, a regular file named *.jsonl, or a Gemini CLI chat of its older .json layout), or null for any other path: a file named by a client
   * is opened only when this says it is one.
   */
  sourceOf(file: string): SessionSource | null {
    const stored = openCodeSessionOf(file)
    if (stored !== null) {
      const db = realPathOf(openCodeDatabase(this.homes))
      const storage = realPathOf(join(dirname(openCodeDatabase(this.homes)), 'storage', 'session'))
      const at = realPathOf(stored.store)
      return (stored.json ? dirname(dirname(at)) === storage : at === db) ? 'opencode' : null
    }
    let real: string
    try {
      real = realpathSync.native(file)
      if (!(real.endsWith('.jsonl') || isLegacyGeminiChat(real)) || !statSync(real).isFile()) {
        return null
      }
    } catch {
      return null
    }
    // A chat of Gemini CLI's one-document layout is one only where Gemini CLI keeps its chats.
    const sources = real.endsWith('.jsonl') ? ALL : (['gemini-cli'] as const)
    return (
      sources.find((source) =>
        LAYOUTS[source].holds(
          realPathOf(sessionsRoot(this.homes, source)),
          this.homes[source],
          real
        )
      ) ?? null
    )
  }

  /** The folders of one source with their cwd (null when none could be read, or per file). */
  private projectFolders(source: FileSource): { folder: string; cwd: string | null }[] {
    const layout = LAYOUTS[source]
    return layout.folders(sessionsRoot(this.homes, source), this.homes[source]).map((folder) => ({
      folder,
      cwd:
        layout.cwd === 'file'
          ? null
          : layout.cwd === 'probe'
            ? this.folderCwd(folder, source)
            : layout.cwd(folder)
    }))
  }

  /**
   * The cwd a project folder's sessions record, read from its oldest file and remembered with
   * that file's stamp. `files` (with stamps) when the caller has them already.
   */
  private folderCwd(
    folder: string,
    source: FileSource,
    files?: { name: string; stamp: FileStamp }[]
  ): string | null {
    const known = LAYOUTS[source].cwd
    if (typeof known === 'function') return known(folder)
    this.probes.refresh()
    const cached = this.probes.get(folder)
    if (cached !== undefined) {
      const probe =
        files?.find((f) => f.name === cached.value.file)?.stamp ??
        regularFileStampAt(join(folder, cached.value.file))
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

/**
 * What takes each file of our folders as the index lists it: a session of the workspace (by the
 * cwd its header records, real paths compared) or a file that is no session (listed with its
 * problem, so it can be shown, as listing.ts does), given to `add`; a session of another
 * workspace in a shared (older) folder, or a file not named as ours, is left out.
 */
function ourSessionsTaker(
  cwd: string,
  add: (session: DiscoveredSession) => void
): (indexed: IndexedFile) => void {
  const real = realPathOf(cwd)
  const realOf = memoRealPath()
  return (indexed) => {
    const named = parseSessionFileName(indexed.name)
    if (named === null) return
    const recorded = indexed.summary.cwd
    if (indexed.problem === null && (recorded === null || realOf(recorded) !== real)) return
    add(discovered(indexed, indexed.summary.cwd, named))
  }
}

const shared = new Map<string, Sources>()

/**
 * The one Sources of a data home in this process: the studio of each workspace the host opens
 * and the host's own workspace list share one session index in memory (a 10,000-session index
 * is ~12 MB of JSON: parsed once per process, not once per user of it). On disk the index is the
 * same for every process of the home, the CLI's included (file-cache.ts).
 */
export function sharedSources(home: string): Sources {
  let sources = shared.get(home)
  if (sources === undefined) {
    sources = new Sources({ home })
    shared.set(home, sources)
  }
  return sources
}

/**
 * Of the files of one session, the one written last: the tool lists the session once (Gemini CLI
 * starts a second file on --resume; a Codex CLI backtrack starts a new segment of the thread,
 * whose tree holds the earlier ones), titled by its first file's first prompt, as the tool titles
 * it (Codex's `first_user_message`).
 */
function newestPerSession(sessions: DiscoveredSession[]): DiscoveredSession[] {
  const newest = new Map<string, DiscoveredSession>()
  const first = new Map<string, DiscoveredSession>()
  for (const session of sessions) {
    const known = newest.get(session.sessionId)
    if (known === undefined || session.lastActivity > known.lastActivity)
      newest.set(session.sessionId, session)
    const earliest = first.get(session.sessionId)
    if (earliest === undefined || session.createdAt < earliest.createdAt)
      first.set(session.sessionId, session)
  }
  return [...newest.values()].map((session) => {
    const firstPrompt = first.get(session.sessionId)?.summary.firstPrompt ?? null
    if (firstPrompt === null || session.summary.title !== null) return session
    return { ...session, title: firstPrompt, summary: { ...session.summary, firstPrompt } }
  })
}

/**
 * `cwd`: the project's root where the tool keeps it beside its files; `named`: the id and time
 * our file name holds, which win over the summary's.
 */
function discovered(
  indexed: IndexedFile,
  cwd: string | null = indexed.summary.cwd,
  named?: { sessionId: string; createdAt: string }
): DiscoveredSession {
  // A copy only where something differs from the index's summary (most files: none).
  const summary =
    cwd === indexed.summary.cwd && indexed.source !== 'codex'
      ? indexed.summary
      : { ...indexed.summary, cwd }
  // A Codex fork's tree holds its parent's prompts before its own, a backtrack's segment its
  // earlier segments': so does its count.
  if (indexed.source === 'codex') summary.prompts += inheritedPrompts(indexed.file, summary.forkOf)
  const lastActivity = summary.lastActivity ?? new Date(indexed.stamp.mtimeMs).toISOString()
  // Built field by field: a spread of 10,000 listed files was a tenth of a warm listing.
  return {
    file: indexed.file,
    name: indexed.name,
    source: indexed.source,
    stamp: indexed.stamp,
    summary,
    problem: indexed.problem,
    sessionId: named?.sessionId ?? summary.sessionId ?? basename(indexed.name, '.jsonl'),
    createdAt: named?.createdAt ?? summary.createdAt ?? lastActivity,
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
/**
 * Tools one session of which can be several files: Gemini CLI starts a second chat file on
 * --resume, a Codex CLI backtrack a new segment of the thread. Each is counted once, as the tool
 * lists it (newestPerSession lists it once too).
 */
const SPANS_FILES: ReadonlySet<FileSource> = new Set(['codex', 'gemini-cli'])

/** One session file as All projects counts it: `session` names the session it is part of. */
interface Counted {
  folder: string
  cwd: string
  session: string
  /** When it was last written to, as its records say (else the file's mtime): the newest file of a session, and the project's last activity. */
  last: string
  /** A Codex CLI sub-agent's thread: the thread that spawned it. */
  subagentOf?: string | undefined
}

/**
 * The sessions but Codex CLI's sub-agent threads drawn under one listed (foreign/codex-subagents.ts:
 * a sub-agent's own too, as deep as subagent-nesting.ts draws them), as Codex's own picker lists
 * no sub-agent thread; one whose parent is gone, or past the bounds, is listed, or it could not
 * be opened. A thread's children in the order its rollout spawned them: their ids are uuids of
 * version 7, which sort in the order they were made.
 */
function withoutSubagentThreads<T>(
  sessions: T[],
  idOf: (session: T) => string,
  parentOf: (session: T) => string | undefined
): T[] {
  const ids = sessions.map(idOf)
  const parents = new Map(sessions.map((s) => [idOf(s), parentOf(s) ?? null]))
  const children = new Map<string, string[]>()
  for (const [id, parent] of parents) {
    if (parent === null) continue
    const list = children.get(parent)
    if (list === undefined) children.set(parent, [id])
    else list.push(id)
  }
  for (const list of children.values()) list.sort()
  const drawn = drawnAsRuns(
    ids,
    (id) => parents.get(id) ?? null,
    (id) => children.get(id) ?? []
  )
  return sessions.filter((s) => !drawn.has(idOf(s)))
}

/** Of the files of one session (same id, same project), the newest: the one counted. */
function onePerSession(files: Counted[], realOf: (path: string) => string): Counted[] {
  const newest = new Map<string, Counted>()
  for (const file of files) {
    const key = `${realOf(file.cwd)}\0${file.session}`
    const known = newest.get(key)
    if (known === undefined || file.last > known.last) newest.set(key, file)
  }
  return [...newest.values()]
}

/** The counted files by folder and project, in the order first seen. */
function perFolder(files: Counted[]): { folder: string; cwd: string; lasts: string[] }[] {
  const byKey = new Map<string, { folder: string; cwd: string; lasts: string[] }>()
  for (const file of files) {
    const key = `${file.folder}\0${file.cwd}`
    const entry = byKey.get(key) ?? { folder: file.folder, cwd: file.cwd, lasts: [] }
    entry.lasts.push(file.last)
    byKey.set(key, entry)
  }
  return [...byKey.values()]
}

function sessionFilesOf(folder: string, source: FileSource): { name: string; stamp: FileStamp }[] {
  return sessionFilesIn(folder, source).flatMap((name) => {
    if (source === 'rewind-studio' && parseSessionFileName(name) === null) return []
    const stamp = regularFileStampAt(join(folder, name))
    return stamp === null ? [] : [{ name, stamp }]
  })
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

/** OpenCode's database, as the list names it when it cannot be read: no session opens from it. */
function unreadableDatabase(db: string, reason: string): DiscoveredSession {
  const stats = statSync(db, { throwIfNoEntry: false })
  const lastActivity = new Date(stats?.mtimeMs ?? 0).toISOString()
  return {
    file: db,
    name: basename(db),
    source: 'opencode',
    stamp: { size: stats?.size ?? 0, mtimeMs: stats?.mtimeMs ?? 0, ino: stats?.ino ?? 0 },
    summary: { ...emptySummary(), lastActivity },
    problem: `OpenCode's database could not be read (${reason}): none of its sessions, of any project, is listed`,
    sessionId: basename(db),
    createdAt: lastActivity,
    lastActivity,
    title: null
  }
}
