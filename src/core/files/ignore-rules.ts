// Which workspace paths file history tracks: everything git would (every .gitignore on the way
// down applies, deeper ones override shallower ones), never a .git folder: the workspace's or a
// nested repository's, in any case (isGitFolderName). What is not tracked is never restored.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { isGitFolderName } from '../os/git-folder-name'

export class IgnoreRules {
  /** .gitignore rules per directory ('' = root); null where the directory has none. */
  private readonly byDir = new Map<string, Ignore | null>()

  constructor(private readonly root: string) {}

  /** `rel`: workspace-relative, forward slashes. */
  isIgnored(rel: string, isDir: boolean): boolean {
    const parts = rel.split('/')
    if (parts.some(isGitFolderName)) return true
    let ignored = false
    for (let depth = 0; depth < parts.length; depth++) {
      const base = parts.slice(0, depth).join('/')
      const rules = this.rulesOf(base)
      if (rules === null) continue
      const below = parts.slice(depth).join('/') + (isDir ? '/' : '')
      const result = rules.test(below)
      if (result.ignored) ignored = true
      else if (result.unignored) ignored = false
    }
    return ignored
  }

  private rulesOf(dirRel: string): Ignore | null {
    const cached = this.byDir.get(dirRel)
    if (cached !== undefined) return cached
    let rules: Ignore | null = null
    try {
      rules = ignore().add(readFileSync(join(this.root, dirRel, '.gitignore'), 'utf8'))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR') throw error
    }
    this.byDir.set(dirRel, rules)
    return rules
  }
}
