// The rewind-studio command runs as built JavaScript (out/cli): no TypeScript compiler at start-up.
// Shown on copies of the project: one holding only the build (no sources to compile, so any module
// still loaded from TypeScript would fail), and one holding only the sources (a fresh clone right
// after `npm install`), where the first command builds the CLI and then runs it.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, symlinkSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliBuildIsFresh } from '../scripts/ensure-build.mjs'
import { repoRoot } from './support/cli'
import { corpusFile, haveCorpus } from './support/corpus'

const sample = corpusFile('claude-code', 'entireio-cli_9b-3838281539_v2.1.33_file-history.jsonl')

function copyOf(parts: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'rs-cli-copy-'))
  for (const part of parts) cpSync(join(repoRoot, part), join(root, part), { recursive: true })
  // The dependencies, as `npm install` leaves them.
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'))
  return root
}

function run(root: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'bin/rewind-studio.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REWIND_STUDIO_HOME: join(root, 'home') }
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('the rewind-studio command', () => {
  const buildOnly = () => copyOf(['package.json', 'bin', 'scripts', 'out/cli'])

  it('runs from its build alone: no sources, nothing compiled', () => {
    const help = run(buildOnly(), '--help')
    expect(help.err).toBe('')
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^Usage: rewind-studio <command>/)
  })

  it.skipIf(!haveCorpus)('reads a Claude Code transcript from its build alone', () => {
    const inspect = run(buildOnly(), 'inspect', sample, '--json')
    expect(inspect.err).toBe('')
    expect(JSON.parse(inspect.out)).toMatchObject({ format: 'claude-code', records: 31 })
  })

  it('builds itself on first use right after install, then runs', () => {
    const root = copyOf(['package.json', 'bin', 'scripts', 'src'])
    expect(existsSync(join(root, 'out/cli/index.js'))).toBe(false)
    const help = run(root, '--help')
    expect(help.err).toBe('')
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^Usage: rewind-studio <command>/)
    expect(existsSync(join(root, 'out/cli/index.js'))).toBe(true)
  })

  it('is rebuilt when a source is newer than the build, not when only a test beside it is', () => {
    const root = copyOf(['package.json', 'bin', 'scripts', 'src', 'out/cli'])
    const past = new Date(Date.now() - 3_600_000)
    const future = new Date(Date.now() + 3_600_000)
    // Sources an hour old, the build now: fresh.
    for (const dir of ['src/cli', 'src/core', 'src/shared', 'src/web', 'scripts']) {
      utimesSync(join(root, dir), past, past)
    }
    const test = join(root, 'src/core/settings.test.ts')
    const source = join(root, 'src/core/settings.ts')
    for (const file of [test, source]) utimesSync(file, past, past)
    expect(cliBuildIsFresh(root)).toBe(true)
    utimesSync(test, future, future)
    expect(cliBuildIsFresh(root)).toBe(true)
    utimesSync(source, future, future)
    expect(cliBuildIsFresh(root)).toBe(false)
  })
})
