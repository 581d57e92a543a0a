import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  PathOutsideWorkspaceError,
  isInGitFolder,
  resolveInWorkspace,
  workspacePathAsWritten
} from './workspace-paths'

function workspace() {
  const base = mkdtempSync(join(tmpdir(), 'rs-paths-'))
  const root = join(base, 'ws')
  mkdirSync(join(root, 'src'), { recursive: true })
  mkdirSync(join(base, 'outside'))
  writeFileSync(join(base, 'outside', 'secret.txt'), 'x')
  return { base, root }
}

describe('resolveInWorkspace', () => {
  it('refuses a path that climbs out with ..', () => {
    const { root } = workspace()
    expect(() => resolveInWorkspace(root, '../outside/secret.txt')).toThrow(
      PathOutsideWorkspaceError
    )
  })

  it('refuses an absolute path elsewhere', () => {
    const { root } = workspace()
    expect(() => resolveInWorkspace(root, '/etc/passwd')).toThrow(/outside the workspace/)
  })

  it('refuses a path through a symlink that leads outside, even to a file not yet created', () => {
    const { base, root } = workspace()
    symlinkSync(join(base, 'outside'), join(root, 'link'))
    expect(() => resolveInWorkspace(root, 'link/secret.txt')).toThrow(/symlink/)
    expect(() => resolveInWorkspace(root, 'link/new/deeper.txt')).toThrow(/symlink/)
  })

  it("refuses the workspace's .git folder", () => {
    const { root } = workspace()
    expect(() => resolveInWorkspace(root, '.git/config')).toThrow(/\.git/)
    expect(() => resolveInWorkspace(root, join(root, '.git'))).toThrow(/\.git/)
  })

  it('refuses the .git folder reached through a symlink inside the workspace', () => {
    const { root } = workspace()
    mkdirSync(join(root, '.git'))
    symlinkSync(join(root, '.git'), join(root, 'g'))
    expect(() => resolveInWorkspace(root, 'g/config')).toThrow(/\.git/)
  })

  it('accepts relative and absolute paths inside, existing or not', () => {
    const { root } = workspace()
    expect(resolveInWorkspace(root, 'src/new/a.ts')).toEqual({
      abs: join(root, 'src/new/a.ts'),
      rel: 'src/new/a.ts'
    })
    expect(resolveInWorkspace(root, join(root, 'src')).rel).toBe('src')
    expect(resolveInWorkspace(root, '.gitignore').rel).toBe('.gitignore')
  })

  it('refuses a nested .git at any depth, and a symlink leading into one', () => {
    const { root } = workspace()
    mkdirSync(join(root, 'vendor/lib/.git'), { recursive: true })
    symlinkSync(join(root, 'vendor/lib/.git'), join(root, 'src/g'))
    for (const p of ['vendor/lib/.git/config', 'vendor/lib/.git', 'src/g/hooks/pre-commit']) {
      expect(() => resolveInWorkspace(root, p), p).toThrow(/inside a \.git folder/)
    }
  })
})

describe('workspacePathAsWritten', () => {
  // What it answered before its shortcut for plain relative paths: resolved against the root.
  function byResolving(root: string, requested: string): { abs: string; rel: string } | 'refused' {
    const abs = resolve(root, requested)
    const rel = relative(root, abs)
    if (rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return 'refused'
    return isInGitFolder(rel) ? 'refused' : { abs, rel: rel.split(sep).join('/') }
  }

  it('answers every path, plain or not, as resolving it against the root does', () => {
    const parts = [
      'a',
      'b c',
      '.',
      '..',
      '',
      '.git',
      'GIT~1',
      'Git~2',
      '.gİt',
      '.g\u200cit',
      '.GIT.',
      'x\\y',
      'git',
      '..a',
      '.b'
    ]
    // Every path of one to three of these parts.
    const paths = parts.flatMap((a) => [
      a,
      ...parts.flatMap((b) => [`${a}/${b}`, ...parts.map((c) => `${a}/${b}/${c}`)])
    ])
    for (const root of ['/r/ws', '/r/ws/', '/r/./ws', '/']) {
      for (const requested of paths) {
        const expected = byResolving(root, requested)
        let got: { abs: string; rel: string } | 'refused'
        try {
          got = workspacePathAsWritten(root, requested)
        } catch (error) {
          expect(error).toBeInstanceOf(PathOutsideWorkspaceError)
          got = 'refused'
        }
        expect(got, `${root} + ${requested}`).toEqual(expected)
      }
    }
  })
})
