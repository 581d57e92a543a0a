import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Removes the files of `dir` named like `name` and last changed before `beforeMs`: what a writer
 * that died left (a pack's temp file, a spare not taken), once older than any live writer's.
 * Returns how many went; a missing folder has none.
 */
export function removeStaleFiles(dir: string, name: RegExp, beforeMs: number): number {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
  let removed = 0
  for (const found of names) {
    if (!name.test(found)) continue
    const file = join(dir, found)
    const stats = statSync(file, { throwIfNoEntry: false })
    if (stats === undefined || stats.mtimeMs >= beforeMs) continue
    rmSync(file, { force: true })
    removed++
  }
  return removed
}
