// HEAD read from a repository's files says what `git rev-parse HEAD --symbolic-full-name HEAD`
// says, in every layout a workspace meets (a branch with no commit, loose refs, packed refs, a
// detached HEAD, a worktree, a subfolder), says 'unknown' where the files do not say for sure, and
// writes nothing into .git.
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { git } from '../../../test/support/git-machines'
import { GitRepo } from './git'
import { readHead } from './head-file'

function repository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rs-head-'))
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'config', 'user.name', 'Test')
  git(dir, 'config', 'user.email', 'test@example.com')
  return dir
}

function commit(dir: string, message: string): void {
  writeFileSync(join(dir, `${message}.txt`), message)
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', message)
}

/** What git says of HEAD, in readHead's shape. */
function gitsHead(dir: string): { commit: string; branch: string | null } | null {
  try {
    const [commit = '', name = ''] = git(dir, 'rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD')
      .trim()
      .split('\n')
    return { commit, branch: name.startsWith('refs/heads/') ? name.slice(11) : null }
  } catch {
    return null
  }
}

async function headOf(workspace: string) {
  const repo = await GitRepo.open(workspace)
  return readHead(await repo.gitDirs())
}

/** Every path under .git with its size and mtime: what a read must leave as it was. */
function snapshot(dir: string): string[] {
  const out: string[] = []
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else {
        const s = statSync(path)
        out.push(`${path} ${s.size} ${s.mtimeMs}`)
      }
    }
  }
  walk(dir)
  return out.sort()
}

describe('HEAD read from the files', () => {
  it('says what git says: no commit yet, a commit, packed refs, detached, and writes nothing', async () => {
    const dir = repository()
    expect(await headOf(dir)).toBeNull()
    expect(gitsHead(dir)).toBeNull()

    commit(dir, 'one')
    const before = snapshot(join(dir, '.git'))
    expect(await headOf(dir)).toEqual(gitsHead(dir))
    expect(await headOf(dir)).toMatchObject({ branch: 'main' })
    expect(snapshot(join(dir, '.git'))).toEqual(before)

    // The loose ref gone into packed-refs (what gc does).
    git(dir, 'pack-refs', '--all')
    expect(statSync(join(dir, '.git', 'refs', 'heads')).isDirectory()).toBe(true)
    expect(readdirSync(join(dir, '.git', 'refs', 'heads'))).toEqual([])
    expect(await headOf(dir)).toEqual(gitsHead(dir))

    commit(dir, 'two')
    git(dir, 'checkout', '-q', '--detach', 'HEAD~1')
    const detached = await headOf(dir)
    expect(detached).toEqual(gitsHead(dir))
    expect(detached).toMatchObject({ branch: null })

    git(dir, 'checkout', '-q', 'main')
    git(dir, 'checkout', '-q', '-b', 'feature/x')
    commit(dir, 'three')
    expect(await headOf(dir)).toEqual(gitsHead(dir))
    expect(await headOf(dir)).toMatchObject({ branch: 'feature/x' })
  })

  it('reads a worktree (HEAD in its own git dir, the branch in the common dir) and a subfolder', async () => {
    const dir = repository()
    commit(dir, 'one')
    const tree = join(mkdtempSync(join(tmpdir(), 'rs-head-wt-')), 'tree')
    git(dir, 'worktree', 'add', '-q', '-b', 'side', tree)
    commit(tree, 'side-commit')
    expect(await headOf(tree)).toEqual(gitsHead(tree))
    expect(await headOf(tree)).toMatchObject({ branch: 'side' })
    git(tree, 'pack-refs', '--all')
    expect(await headOf(tree)).toEqual(gitsHead(tree))

    const sub = join(dir, 'pkg', 'deep')
    mkdirSync(sub, { recursive: true })
    expect(await headOf(sub)).toEqual(gitsHead(dir))
  })

  it('is unknown where the files do not say for sure (reftable, a ref outside refs/)', async () => {
    const dir = repository()
    commit(dir, 'one')
    const dirs = await (await GitRepo.open(dir)).gitDirs()
    writeFileSync(join(dirs.gitDir, 'HEAD'), 'ref: ../../outside\n')
    expect(readHead(dirs)).toBe('unknown')
    writeFileSync(join(dirs.gitDir, 'HEAD'), 'ref: refs/heads/main\n')
    mkdirSync(join(dirs.commonDir, 'reftable'))
    expect(readHead(dirs)).toBe('unknown')
  })
})
