// For the tools' tests: a workspace in a temp dir, a context over it, and a small real
// WriteGuard that records every call and finds what a command changed by comparing snapshots
// of the workspace (the real file history does this in src/core/files).
import { createHash } from 'node:crypto'
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  writeFileSync,
  mkdirSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { CommandChanges, WriteGuard } from '../../src/core/files/write-guard'
import { FileStateTable } from '../../src/core/agent/file-state'
import type { ToolContext } from '../../src/core/agent/tools/tool'

export type GuardCall =
  | {
      hook: 'beforeWrite'
      path: string
      tool: string
      newContent: string
      diskBefore: string | null
    }
  | { hook: 'afterWrite'; path: string; tool: string }
  | { hook: 'beforeCommand' | 'afterCommand'; tool: string }

function snapshot(root: string, dir = ''): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`
    if (entry.name === '.git') continue
    if (entry.isDirectory()) for (const [k, v] of snapshot(root, rel)) found.set(k, v)
    else if (entry.isFile()) {
      found.set(
        rel,
        createHash('sha256')
          .update(readFileSync(join(root, rel)))
          .digest('hex')
      )
    }
  }
  return found
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

export class RecordingGuard implements WriteGuard {
  readonly calls: GuardCall[] = []
  /** When set, the named hook throws this message. */
  failing: Partial<Record<GuardCall['hook'], string>> = {}
  private before: Map<string, string> | null = null

  constructor(private readonly root: string) {}

  private maybeFail(hook: GuardCall['hook']): void {
    const message = this.failing[hook]
    if (message !== undefined) throw new Error(message)
  }

  async beforeWrite(path: string, tool: string, newContent: string): Promise<void> {
    this.calls.push({ hook: 'beforeWrite', path, tool, newContent, diskBefore: readOrNull(path) })
    this.maybeFail('beforeWrite')
  }

  async afterWrite(path: string, tool: string): Promise<void> {
    this.calls.push({ hook: 'afterWrite', path, tool })
    this.maybeFail('afterWrite')
  }

  async beforeCommand(tool: string): Promise<void> {
    this.calls.push({ hook: 'beforeCommand', tool })
    this.maybeFail('beforeCommand')
    this.before = snapshot(this.root)
  }

  async afterCommand(tool: string): Promise<CommandChanges> {
    this.calls.push({ hook: 'afterCommand', tool })
    this.maybeFail('afterCommand')
    const before = this.before ?? new Map<string, string>()
    const after = snapshot(this.root)
    return {
      created: [...after.keys()].filter((p) => !before.has(p)).sort(),
      modified: [...after.keys()]
        .filter((p) => before.has(p) && before.get(p) !== after.get(p))
        .sort(),
      deleted: [...before.keys()].filter((p) => !after.has(p)).sort(),
      untracked: [],
      notBackedUp: [],
      warnings: [],
      unknownOrigin: []
    }
  }
}

export interface TestWorkspace {
  /** Parent of the workspace: room for "outside" files. */
  base: string
  root: string
  guard: RecordingGuard
  ctx: ToolContext
  abort: AbortController
  /** Writes a file relative to the workspace, creating folders. */
  put(rel: string, content: string | Buffer): string
  read(rel: string): string
}

export function makeWorkspace(allowedOutsideRoots: string[] = []): TestWorkspace {
  // realpath: tmpdir may itself be a symlink, and tools report real paths.
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'rs-tools-')))
  const root = join(base, 'ws')
  mkdirSync(root)
  const guard = new RecordingGuard(root)
  const abort = new AbortController()
  const ctx: ToolContext = {
    cwd: root,
    fileState: new FileStateTable(),
    guard,
    allowedOutsideRoots,
    signal: abort.signal
  }
  return {
    base,
    root,
    guard,
    ctx,
    abort,
    put(rel, content) {
      const abs = join(root, rel)
      mkdirSync(dirname(abs), { recursive: true })
      writeFileSync(abs, content)
      return abs
    },
    read: (rel) => readFileSync(join(root, rel), 'utf8')
  }
}
