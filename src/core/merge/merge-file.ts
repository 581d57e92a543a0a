// The three-way merge of one file's text: git's own `merge-file`, run on the three versions
// written to a private folder of the data home (never the workspace, never /tmp: the contents
// are the user's files, a secret.env included). git because it is what the user's own merges do
// (the same hunks, the same conflict markers, the same `--ours` / `--theirs` choices), and the
// issue's figure is measured against it; no JavaScript diff3 is bundled beside it, so a merge
// gives the same bytes on every machine that has git, and where git is missing a file both
// branches changed is named as a conflict that cannot be merged here (merge-plan.ts).
//
// Each run is bounded (time, output) and off this thread (a child process); a few run at once.
// A plan's many files go through merge-tree.ts first (three processes for them all); merge-file
// runs for the ones that conflict (their markers) and for an apply's ours / theirs choices.
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { type ChildRun, runChild, runChildSync } from '../os/child-env'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'
import { type TextTriple, mergeCleanly, privateGitEnv } from './merge-tree'

/** Which side git's merge takes where both changed the same lines (null: mark the conflict). */
export type Favor = 'ours' | 'theirs' | null

export interface FileMerge {
  content: Buffer
  /** Conflicting hunks left marked in `content` (0 with a favor, or a clean merge). */
  conflicts: number
}

/** The labels git writes on the conflict markers. */
export interface MergeLabels {
  ours: string
  base: string
  theirs: string
}

/** Three-way merges running at once: git is a process each; more would only queue on 2 cores. */
const PARALLEL = 4
const TIMEOUT_MS = 60_000

/** Whether git can be run here (asked once per process). */
let gitFound: boolean | null = null
export function gitAvailable(): boolean {
  if (gitFound === null) {
    const probe = runChildSync('git', ['--version'], { cwd: '/', timeoutMs: 10_000 })
    gitFound = probe.error === undefined && probe.status === 0
  }
  return gitFound
}

/**
 * Merges in a folder of its own under `scratch` (a private folder of the data home), removed by
 * close(). One per plan: its runs share the folder, each under names of its own.
 */
export class MergeRunner {
  private readonly dir: string
  private next = 0
  private running = 0
  private readonly queue: (() => void)[] = []

  constructor(scratch: string) {
    ensurePrivateDir(scratch)
    this.dir = mkdtempSync(join(scratch, 'merge-'))
  }

  /** base → ours and base → theirs, merged (base null: both added the file). */
  async merge(
    base: Buffer | null,
    ours: Buffer,
    theirs: Buffer,
    favor: Favor,
    labels: MergeLabels
  ): Promise<FileMerge> {
    await this.slot()
    const n = this.next++
    const names = ['ours', 'base', 'theirs'].map((side) => join(this.dir, `${n}.${side}`))
    const [oursFile, baseFile, theirsFile] = names as [string, string, string]
    try {
      writePrivateFileSync(oursFile, ours)
      writePrivateFileSync(baseFile, base ?? Buffer.alloc(0))
      writePrivateFileSync(theirsFile, theirs)
      const args = [
        'merge-file',
        '-p',
        ...(favor === null ? [] : [`--${favor}`]),
        '-L',
        labels.ours,
        '-L',
        labels.base,
        '-L',
        labels.theirs,
        oursFile,
        baseFile,
        theirsFile
      ]
      const run: ChildRun = await runChild('git', args, {
        cwd: this.dir,
        env: privateGitEnv(null),
        timeoutMs: TIMEOUT_MS,
        // Markers and both sides of every hunk at most, with room for the labels.
        maxStdoutBytes: 2 * (ours.length + theirs.length) + (base?.length ?? 0) + 65_536
      })
      // merge-file exits with the number of conflicts (at most 127), or 255 when it could not merge.
      if (run.status === null || run.status > 127) {
        throw new Error(`git merge-file failed: ${run.stderr.trim() || `status ${run.status}`}`)
      }
      return { content: run.stdout, conflicts: run.status }
    } finally {
      for (const file of names) rmSync(file, { force: true })
      this.release()
    }
  }

  /**
   * Each triple merged: the clean ones' results as merge-file gives them; the conflicting ones
   * with their hunks marked (merge-file, run for those only).
   */
  async mergeAll(triples: readonly TextTriple[], labels: MergeLabels): Promise<FileMerge[]> {
    const clean = await mergeCleanly(this.dir, triples)
    return Promise.all(
      triples.map((t, i) => {
        const content = clean[i]
        return content === null || content === undefined
          ? this.merge(t.base, t.ours, t.theirs, null, labels)
          : { content, conflicts: 0 }
      })
    )
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }

  private async slot(): Promise<void> {
    if (this.running < PARALLEL) {
      this.running++
      return
    }
    await new Promise<void>((resolve) => this.queue.push(resolve))
  }

  private release(): void {
    const next = this.queue.shift()
    if (next !== undefined) next()
    else this.running--
  }
}
