// OpenCode's snapshots of a session's files, as the rescue restore reads them: each step that
// changed files has a `patch` part naming them and the tree of the snapshot repository
// (`<data>/snapshot/<project>/<hash>/`, a bare git repository whose objects may be the workspace's
// own through alternates) taken before it. The OpenCode reader (opencode.ts) gives each patch.
import { readdirSync, realpathSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { GitObjects } from './git-objects'
import type { BackupStore, ForeignBackups, RestorePoint } from './types'

/**
 * A session's snapshots: the patches of its steps in order, each with the turn it was in and the
 * tree before it, over OpenCode's snapshot repository of the project.
 */
export class OpenCodeSnapshots implements ForeignBackups {
  private objects: GitObjects | null = null
  private gitDir: string | null = null
  private readonly patches: { turn: string; tree: string; paths: string[] }[] = []
  private readonly turns: string[] = []
  /** Every snapshot tree the session names, before and after its steps: what OpenCode holds. */
  private readonly trees = new Set<string>()

  private constructor(private readonly projectDir: string) {}

  /** The snapshots of a project, or null when OpenCode keeps none for it. */
  static of(projectDir: string): OpenCodeSnapshots | null {
    try {
      return readdirSync(projectDir).length > 0 ? new OpenCodeSnapshots(projectDir) : null
    } catch {
      return null
    }
  }

  get store(): BackupStore {
    const first = this.patches[0]
    if (this.gitDir === null && first !== undefined) this.repositoryOf(first.tree)
    return { kind: 'git', gitDir: this.gitDir ?? this.projectDir }
  }

  turn(uuid: string): void {
    this.turns.push(uuid)
  }

  patch(turn: string, tree: string, paths: string[], after: string | null): void {
    this.patches.push({ turn, tree, paths })
    this.trees.add(tree)
    if (after !== null) this.trees.add(after)
  }

  /**
   * The blob at `path` in a snapshot tree (null: the tree holds no such file); undefined when the
   * snapshot cannot be read. The repository is the project's folder that holds the tree.
   */
  blob(tree: string | null, path: string): string | null | undefined {
    if (tree === null) return undefined
    const objects = this.repositoryOf(tree)
    if (objects === null) return undefined
    try {
      return objects.blobAt(tree, path)
    } catch {
      return undefined
    }
  }

  restoreTo(promptUuid: string): RestorePoint {
    const from = this.turns.indexOf(promptUuid)
    if (from === -1)
      return {
        refused: 'OpenCode recorded no snapshot for this prompt: there is nothing to restore to.'
      }
    const later = new Set(this.turns.slice(from))
    const files = new Map<string, string | null>()
    for (const patch of this.patches) {
      if (!later.has(patch.turn)) continue
      for (const path of patch.paths) {
        if (files.has(path) || isAbsolute(path)) continue
        const blob = this.blob(patch.tree, path)
        if (blob === undefined) {
          return {
            refused: `OpenCode's snapshot ${patch.tree} (before a step of this turn or a later one) cannot be read: nothing can be restored.`
          }
        }
        files.set(path, blob)
      }
    }
    return { files }
  }

  versions(path: string): string[] {
    const refs = new Set<string>()
    for (const tree of this.trees) {
      const blob = this.blob(tree, path)
      if (typeof blob === 'string') refs.add(blob)
    }
    return [...refs]
  }

  /** The project's snapshot repository: the one of its folders whose objects hold `tree`. */
  private repositoryOf(tree: string): GitObjects | null {
    if (this.objects !== null) return this.objects
    let names: string[]
    try {
      names = readdirSync(this.projectDir).sort()
    } catch {
      return null
    }
    for (const name of names) {
      const gitDir = join(this.projectDir, name)
      const objects = new GitObjects(gitDir)
      try {
        objects.treeOf(tree)
      } catch {
        continue
      }
      this.objects = objects
      this.gitDir = realPathOr(gitDir)
      return objects
    }
    return null
  }
}

function realPathOr(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}
