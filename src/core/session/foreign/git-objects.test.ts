// The git object reader (session/foreign/git-objects.ts) against repositories git itself made:
// loose objects, packs with deltas (after an aggressive gc), a clone whose objects are another's
// (alternates, as OpenCode's snapshots name the workspace's), and what a hostile or damaged store
// holds: each read is what git says, or a GitObjectError, never a hang or a write.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync, appendFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GitObjectError, GitObjects } from './git-objects'
import { fingerprint } from '../../../../test/foreign/cc-fixtures'

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    encoding: 'utf8'
  })

function repo(): { dir: string; commits: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'rs-git-'))
  git(dir, 'init', '-q')
  for (let i = 1; i <= 4; i++) {
    writeFileSync(
      join(dir, 'big.txt'),
      Array.from({ length: 300 * i }, (_, n) => `line ${n}`).join('\n')
    )
    execFileSync('mkdir', ['-p', join(dir, 'a/b')])
    writeFileSync(join(dir, 'a/b/deep.txt'), `v${i}\n`)
    if (i === 3) rmSync(join(dir, 'a/b/deep.txt'))
    git(dir, 'add', '-A')
    git(dir, 'commit', '-qm', `c${i}`)
  }
  return { dir, commits: git(dir, 'log', '--format=%H').trim().split('\n') }
}

/** What git itself lists of a commit: path → its content. */
function gitFiles(dir: string, commit: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of git(dir, 'ls-tree', '-r', commit).trim().split('\n').filter(Boolean)) {
    const [meta, path] = line.split('\t')
    const sha = meta?.split(' ')[2] ?? ''
    out.set(path ?? '', git(dir, 'cat-file', 'blob', sha))
  }
  return out
}

function ours(gitDir: string, commit: string): Map<string, string> {
  const objects = new GitObjects(gitDir)
  return new Map(
    [...objects.files(commit)].map(([path, blob]) => [path, objects.blob(blob).toString('utf8')])
  )
}

describe('the git object reader', () => {
  it('reads loose objects as git does', () => {
    const { dir, commits } = repo()
    for (const commit of commits)
      expect(ours(join(dir, '.git'), commit)).toEqual(gitFiles(dir, commit))
  })

  it('reads packs, deltas resolved, as git does', () => {
    const { dir, commits } = repo()
    git(dir, 'gc', '-q', '--aggressive', '--prune=now')
    expect(readdirSync(join(dir, '.git/objects/pack')).some((f) => f.endsWith('.pack'))).toBe(true)
    for (const commit of commits)
      expect(ours(join(dir, '.git'), commit)).toEqual(gitFiles(dir, commit))
    const objects = new GitObjects(join(dir, '.git'))
    expect(objects.blobAt(commits[0] ?? '', 'a/b/deep.txt')).not.toBeNull()
    expect(objects.blobAt(commits[1] ?? '', 'a/b/deep.txt')).toBeNull()
  })

  it("follows alternates: a repository whose objects are another's", () => {
    const { dir, commits } = repo()
    git(dir, 'gc', '-q')
    const clone = mkdtempSync(join(tmpdir(), 'rs-git-shared-'))
    execFileSync('git', ['clone', '-q', '--shared', '--bare', dir, join(clone, 'snap')])
    const gitDir = join(clone, 'snap')
    expect(
      readdirSync(join(gitDir, 'objects')).filter((f) => f !== 'info' && f !== 'pack')
    ).toEqual([])
    for (const commit of commits) expect(ours(gitDir, commit)).toEqual(gitFiles(dir, commit))
  })

  it('names what it cannot read, and writes nothing', () => {
    const { dir, commits } = repo()
    // An alternates file naming its own store, and its parent: each followed once.
    appendFileSync(join(dir, '.git/objects/info/alternates'), `${join(dir, '.git/objects')}\n..\n`)
    const before = fingerprint(join(dir, '.git'))
    const objects = new GitObjects(join(dir, '.git'))
    expect(() => objects.read('0'.repeat(40))).toThrow(GitObjectError)
    expect(() => objects.read('../../etc/passwd')).toThrow(GitObjectError)
    expect(new GitObjects(join(dir, '.git')).files(commits[0] ?? '').size).toBe(2)
    // A damaged loose object: refused by its name's check.
    const sha = git(dir, 'rev-parse', `${commits[0]}:big.txt`).trim()
    const path = join(dir, '.git/objects', sha.slice(0, 2), sha.slice(2))
    execFileSync('chmod', ['u+w', path])
    writeFileSync(path, 'not zlib')
    expect(() => new GitObjects(join(dir, '.git')).blob(sha)).toThrow(GitObjectError)
    const after = fingerprint(join(dir, '.git'))
    delete after[join('objects', sha.slice(0, 2), sha.slice(2))]
    delete before[join('objects', sha.slice(0, 2), sha.slice(2))]
    expect(after).toEqual(before)
  })
})
