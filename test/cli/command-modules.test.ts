// What a command loads as a user runs it (a real process of the built command): every module it
// loads costs its process CPU at start (docs/performance.md, "Where the time goes"), so a command
// reading a log loads neither zod (records are checked by hand as they load; their schemas are
// for appending) nor node:child_process (loaded when a child first starts, core/os/child-env.ts)
// nor node:zlib and node:crypto (loaded when a foreign reader first reads a git object,
// git-objects.ts).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'

const root = resolve(__dirname, '../..')

/** Prints each file the loader loads, and at exit the built-in modules loaded. */
const hooks = `export async function load(url, context, next) {
  const result = await next(url, context)
  if (url.startsWith('file:')) process.stderr.write('LOADED ' + url + '\\n')
  return result
}`
const preload = `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}))
process.on('exit', () => process.stderr.write('BUILTINS ' + process.moduleLoadList.join(',') + '\\n'))`

function loadedBy(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}
): { files: string[]; builtins: string[] } {
  const { status, stderr } = spawnSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(preload)}`,
      join(root, 'bin/rewind-studio.mjs'),
      ...args
    ],
    { encoding: 'utf8', input: options.input ?? '', env: options.env, cwd: options.cwd }
  )
  expect(status, stderr).toBe(0)
  const lines = stderr.split('\n')
  return {
    files: lines.filter((l) => l.startsWith('LOADED ')).map((l) => fileURLToPath(l.slice(7))),
    builtins: (lines.find((l) => l.startsWith('BUILTINS ')) ?? '').slice(9).split(',')
  }
}

/** Whether a built chunk holds zod's code (esbuild names each bundled file in a comment). */
const holdsZod = (file: string) => /^\/\/ \S*node_modules\/zod\//m.test(readFileSync(file, 'utf8'))

describe('the modules a command loads', () => {
  it('inspect reads a session without loading zod, node:child_process, zlib or crypto', () => {
    const home = mkdtempSync(join(tmpdir(), 'rs-command-modules-'))
    const store = SessionStore.create({ home, cwd: '/work/p' })
    const prompt = store.appendMessage({ role: 'user', content: 'add TIMEOUT' })
    store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'added' }] })
    store.appendFileChange({
      checkpointUuid: prompt.uuid,
      path: 'config.py',
      before: null,
      after: 'h1',
      source: 'Write'
    })
    const { files, builtins } = loadedBy(['inspect', store.file])
    expect(files.some((f) => f.includes(join('out', 'cli', 'inspect-')))).toBe(true)
    expect(files.filter(holdsZod)).toEqual([])
    expect(builtins).not.toContain('NativeModule child_process')
    expect(builtins).not.toContain('NativeModule zlib')
    expect(builtins).not.toContain('NativeModule crypto')
  })

  it('--help loads no node:child_process', () => {
    const { files, builtins } = loadedBy(['--help'])
    expect(files.some((f) => f.endsWith(join('out', 'cli', 'index.js')))).toBe(true)
    expect(builtins).not.toContain('NativeModule child_process')
  })

  it('chat loads its commands on nodes (/tree, /fork, /label) when one is typed', () => {
    const home = mkdtempSync(join(tmpdir(), 'rs-command-modules-home-'))
    const cwd = mkdtempSync(join(tmpdir(), 'rs-command-modules-cwd-'))
    const env = { ...process.env, REWIND_STUDIO_HOME: home, ANTHROPIC_API_KEY: '' }
    const nodeCommands = (files: string[]) => files.filter((f) => f.includes('chat-nodes-'))
    const plain = loadedBy(['chat', '--cwd', cwd], { input: '/exit\n', env, cwd })
    expect(plain.files.some((f) => f.includes(join('out', 'cli', 'chat-')))).toBe(true)
    expect(nodeCommands(plain.files)).toEqual([])
    const tree = loadedBy(['chat', '--cwd', cwd], { input: '/tree\n/exit\n', env, cwd })
    expect(nodeCommands(tree.files)).toHaveLength(1)
  })
})
