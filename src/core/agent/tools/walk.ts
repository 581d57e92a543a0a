// The file walk behind Glob and Grep, like ripgrep's: .gitignore files are honoured at every
// level (an ignored folder is never entered, so node_modules costs nothing), every .git folder
// (nested ones too, in any case: isGitFolderName) is skipped as Read refuses it, hidden files
// are included, symlinks are not followed (one could lead out of the workspace).
import { readFile, readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import ignore from 'ignore'
import type { Ignore } from 'ignore'
import { isGitFolderName } from '../../os/git-folder-name'

export interface WalkedFile {
  abs: string
  /** Relative to the folder walked, forward slashes. */
  rel: string
}

interface IgnoreLevel {
  /** Folder holding the .gitignore, relative to the root, forward slashes ('' = the root). */
  dir: string
  rules: Ignore
}

function toSlashes(p: string): string {
  return p.split(sep).join('/')
}

async function loadGitignore(root: string, dir: string): Promise<IgnoreLevel | null> {
  const text = await readFile(join(root, dir, '.gitignore'), 'utf8').catch(() => null)
  return text === null ? null : { dir, rules: ignore().add(text) }
}

/** Later (deeper) levels override earlier ones, as in git: a `!pattern` can re-include. */
function isIgnored(levels: readonly IgnoreLevel[], relToRoot: string, isDir: boolean): boolean {
  let ignored = false
  for (const level of levels) {
    if (level.dir !== '' && !relToRoot.startsWith(`${level.dir}/`)) continue
    const relToLevel = level.dir === '' ? relToRoot : relToRoot.slice(level.dir.length + 1)
    const verdict = level.rules.test(isDir ? `${relToLevel}/` : relToLevel)
    if (verdict.ignored) ignored = true
    else if (verdict.unignored) ignored = false
  }
  return ignored
}

/**
 * Every file under `base` (inside `root`, where .gitignore rules start), in a stable order
 * (sorted by name per folder). A `base` that is itself ignored is walked anyway: the caller
 * asked for it, so only the .gitignore files inside it apply. Sibling folders are read
 * concurrently; a cancelled walk returns what it found so far.
 */
export async function walkFiles(
  root: string,
  base: string,
  signal: AbortSignal
): Promise<WalkedFile[]> {
  const baseRel = toSlashes(relative(root, base))
  const ancestors =
    baseRel === ''
      ? ['']
      : ['', ...baseRel.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))]
  const inherited = (await Promise.all(ancestors.map((dir) => loadGitignore(root, dir)))).filter(
    (level): level is IgnoreLevel => level !== null
  )
  const startLevels =
    baseRel !== '' &&
    isIgnored(
      inherited.filter((l) => l.dir !== baseRel),
      baseRel,
      true
    )
      ? inherited.filter((l) => l.dir === baseRel)
      : inherited

  async function walkDir(dirRel: string, levels: readonly IgnoreLevel[]): Promise<WalkedFile[]> {
    if (signal.aborted) return []
    const [own, entries] = await Promise.all([
      dirRel === baseRel ? null : loadGitignore(root, dirRel),
      readdir(join(root, dirRel), { withFileTypes: true }).catch(() => [])
    ])
    const active = own === null ? levels : [...levels, own]
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const found = await Promise.all(
      entries.map(async (entry): Promise<WalkedFile[]> => {
        if (isGitFolderName(entry.name)) return []
        const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`
        if (entry.isDirectory()) {
          return isIgnored(active, rel, true) ? [] : walkDir(rel, active)
        }
        if (!entry.isFile() || isIgnored(active, rel, false)) return []
        return [{ abs: join(root, rel), rel: baseRel === '' ? rel : rel.slice(baseRel.length + 1) }]
      })
    )
    return found.flat()
  }
  return walkDir(baseRel, startLevels)
}
