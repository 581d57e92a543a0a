// The folders Bash change detection saw at its last look (every folder its walks read, and the
// skip folders they met), so that a folder a command made is told from one that was there, an
// empty one too: a rewind past the command removes the folders it made that it leaves empty
// (rewind/created-folders.ts).
import { FolderSet, isUnder } from './folder-set'

export class SeenFolders {
  private readonly folders = new FolderSet()

  /**
   * A walk of `rel` ('' for the whole workspace) found `found` there: they replace what was seen
   * at or under `rel`. Returns those of them that were not there: seen nowhere before, nor lying
   * in a folder that was not read then (`notRead`: past the room, or a skip folder; it was
   * there, only not looked into).
   */
  walked(rel: string, found: readonly string[], notRead: ReadonlySet<string>): string[] {
    const before = new Set(this.folders.under(rel))
    for (const dir of before) this.folders.delete(dir)
    const appeared: string[] = []
    for (const dir of found) {
      this.folders.add(dir)
      if (dir !== '' && !before.has(dir) && !isUnder(dir, notRead)) appeared.push(dir)
    }
    return appeared
  }

  /** `rel` holds no folder any more (gone, or a file now): nor does anything under it. */
  gone(rel: string): void {
    for (const dir of this.folders.under(rel)) this.folders.delete(dir)
  }
}
