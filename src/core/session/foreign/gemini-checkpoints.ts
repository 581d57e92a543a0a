// Gemini CLI's checkpoints of a project (`tmp/<project>/checkpoints/*.json`, one before each edit
// tool call it asked approval for, each naming its git commit in the shadow repository
// `history/<project>/.git`) as a session's backups: matched to the turns of the session's tool
// calls (gemini-cli.ts tells it each answer's calls), read without git (git-objects.ts).
import { readdirSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, sep } from 'node:path'
import { readOptionalText } from '../../os/read-regular-file'
import { isObject, stringOrNull, type Json } from '../json'
import { GitObjects } from './git-objects'
import type { BackupStore, ForeignBackups, RestorePoint } from './types'

/**
 * node:util, loaded when a checkpoint's call is first compared: importing it as a module loads
 * its lazy parts too (MIME types, parseArgs), with every reader of a log (session/load.ts).
 */
const util = () => process.getBuiltinModule('node:util')

/** Arguments that name the file an edit tool writes. */
const PATH_ARGS = ['file_path', 'absolute_path', 'path']
/** The most checkpoint files read, and the largest one (each holds the conversation up to it). */
const MAX_CHECKPOINTS = 10_000
const MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024

interface Checkpoint {
  commit: string
  toolCall: { name: unknown; args: unknown }
  /** The checkpoint file's name: it starts with the time it was made, which orders them. */
  name: string
}

/** When a checkpoint was made, from its name (`2026-12-01T23-59-17_247Z-…`), as an ISO time. */
function timeOfCheckpoint(name: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})_(\d{3})Z/.exec(name)
  return m === null ? null : `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`
}

/**
 * The checkpoints of a project (`tmp/<project>/checkpoints/`), those of this session's tool calls
 * matched to the prompt of their turn, over the project's shadow repository.
 */
export class GeminiCheckpoints implements ForeignBackups {
  readonly store: BackupStore
  private readonly objects: GitObjects
  /** The paths each tool call of the session names, and the turn it was in. */
  private readonly calls: { name: unknown; args: unknown; turn: string | null; at: string }[] = []
  private readonly edited = new Set<string>()

  private constructor(
    gitDir: string,
    private readonly checkpoints: Checkpoint[],
    private readonly cwd: string,
    private readonly turnOf: ReadonlyMap<string, string>
  ) {
    this.store = { kind: 'git', gitDir }
    this.objects = new GitObjects(gitDir)
  }

  /** The project's checkpoints, or null when it has no shadow repository. */
  static beside(
    project: string,
    cwd: string,
    turnOf: ReadonlyMap<string, string>
  ): GeminiCheckpoints | null {
    const id = project.split(sep).at(-1) ?? ''
    const gitDir = join(dirname(dirname(project)), 'history', id, '.git')
    let names: string[]
    try {
      names = readdirSync(join(project, 'checkpoints')).filter((n) => n.endsWith('.json'))
    } catch {
      names = []
    }
    const checkpoints: Checkpoint[] = []
    for (const name of names.sort().slice(0, MAX_CHECKPOINTS)) {
      const text = readOptionalText(join(project, 'checkpoints', name))
      if (text === null || text.length > MAX_CHECKPOINT_BYTES) continue
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch {
        continue
      }
      if (!isObject(value) || typeof value.commitHash !== 'string' || !isObject(value.toolCall))
        continue
      checkpoints.push({
        commit: value.commitHash,
        toolCall: { name: value.toolCall.name, args: value.toolCall.args },
        name
      })
    }
    let hasRepo = false
    try {
      hasRepo = readdirSync(gitDir).includes('objects')
    } catch {
      hasRepo = false
    }
    return hasRepo ? new GeminiCheckpoints(gitDir, checkpoints, cwd, turnOf) : null
  }

  /** The tool calls of an answer (what a checkpoint is matched to), and the files they edit. */
  noteCalls(record: Json, turn: string | null): void {
    const content = isObject(record.message) ? record.message.content : null
    if (!Array.isArray(content)) return
    for (const block of content) {
      if (!isObject(block) || block.type !== 'tool_use') continue
      const input = isObject(block.input) ? block.input : {}
      this.calls.push({
        name: block.name,
        args: input,
        turn,
        at: stringOrNull(record.timestamp) ?? ''
      })
      for (const arg of PATH_ARGS) {
        const path = stringOrNull(input[arg])
        if (path !== null && path !== '') this.edited.add(this.relative(path))
      }
    }
  }

  restoreTo(promptUuid: string): RestorePoint {
    const first = this.checkpoints.find((c) => this.turnOfCheckpoint(c) === promptUuid)
    if (first === undefined) {
      return {
        refused:
          'Gemini CLI has no checkpoint left for this turn: it makes one before each edit it asked you to approve, and deletes them when it starts again.'
      }
    }
    const files = new Map<string, string | null>()
    for (const path of this.tracked()) files.set(path, this.objects.blobAt(first.commit, path))
    return { files }
  }

  versions(path: string): string[] {
    const refs = new Set<string>()
    for (const c of this.checkpoints) {
      try {
        const blob = this.objects.blobAt(c.commit, path)
        if (blob !== null) refs.add(blob)
      } catch {
        // A checkpoint whose commit is gone holds nothing to compare with.
      }
    }
    return [...refs]
  }

  /**
   * The prompt a checkpoint's tool call was made in: the call with its name and arguments, the
   * last one proposed before the checkpoint was made (the same edit asked for again in a later
   * turn is that turn's).
   */
  private turnOfCheckpoint(c: Checkpoint): string | null {
    const made = timeOfCheckpoint(c.name)
    let found: (typeof this.calls)[number] | undefined
    for (const k of this.calls) {
      if (k.name !== c.toolCall.name || !util().isDeepStrictEqual(k.args, c.toolCall.args)) continue
      if (made !== null && k.at !== '' && k.at > made) continue
      if (found === undefined || k.at >= found.at) found = k
    }
    return found?.turn ?? null
  }

  /**
   * The files a restore may touch: those the session's edits named, and those its checkpoints
   * of this session differ in (changed between two of them), never another.
   */
  private tracked(): string[] {
    const paths = new Set(this.edited)
    const mine = this.checkpoints.filter((c) => this.turnOfCheckpoint(c) !== null)
    let before: Map<string, string> | null = null
    for (const c of mine) {
      let now: Map<string, string>
      try {
        now = this.objects.files(c.commit)
      } catch {
        continue
      }
      if (before !== null) {
        for (const path of new Set([...before.keys(), ...now.keys()]))
          if (before.get(path) !== now.get(path)) paths.add(path)
      }
      before = now
    }
    return [...paths].filter((p) => !isAbsolute(p))
  }

  private relative(path: string): string {
    if (!isAbsolute(path) || this.cwd === '') return path
    const rel = relative(this.cwd, path)
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel.split(sep).join('/')
  }
}
