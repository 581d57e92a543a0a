// What a command loads as a user runs it (a real process of the built command): every module it
// loads costs its process CPU at start (docs/performance.md, "Where the time goes"), so a command
// reading a log loads neither zod (records are checked by hand as they load; their schemas are
// for appending) nor node:child_process (loaded when a child first starts, core/os/child-env.ts)
// nor node:zlib (loaded when a foreign reader first inflates a git object, git-objects.ts).
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'

const root = resolve(__dirname, '../..')
const run = promisify(execFile)

/** Prints each file the loader loads, and at exit the built-in modules loaded. */
const hooks = `export async function load(url, context, next) {
  const result = await next(url, context)
  if (url.startsWith('file:')) process.stderr.write('LOADED ' + url + '\\n')
  return result
}`
const preload = `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}))
process.on('exit', () => process.stderr.write('BUILTINS ' + process.moduleLoadList.join(',') + '\\n'))`

async function loadedBy(...args: string[]): Promise<{ files: string[]; builtins: string[] }> {
  const { stderr } = await run(process.execPath, [
    '--import',
    `data:text/javascript,${encodeURIComponent(preload)}`,
    join(root, 'bin/rewind-studio.mjs'),
    ...args
  ])
  const lines = stderr.split('\n')
  return {
    files: lines.filter((l) => l.startsWith('LOADED ')).map((l) => fileURLToPath(l.slice(7))),
    builtins: (lines.find((l) => l.startsWith('BUILTINS ')) ?? '').slice(9).split(',')
  }
}

/** Whether a built chunk holds zod's code (esbuild names each bundled file in a comment). */
const holdsZod = (file: string) => /^\/\/ \S*node_modules\/zod\//m.test(readFileSync(file, 'utf8'))

describe('the modules a command loads', () => {
  it('inspect reads a session without loading zod, node:child_process or node:zlib', async () => {
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
    const { files, builtins } = await loadedBy('inspect', store.file)
    expect(files.some((f) => f.includes(join('out', 'cli', 'inspect-')))).toBe(true)
    expect(files.filter(holdsZod)).toEqual([])
    expect(builtins).not.toContain('NativeModule child_process')
    expect(builtins).not.toContain('NativeModule zlib')
  })

  it('--help loads no node:child_process', async () => {
    const { files, builtins } = await loadedBy('--help')
    expect(files.some((f) => f.endsWith(join('out', 'cli', 'index.js')))).toBe(true)
    expect(builtins).not.toContain('NativeModule child_process')
  })
})
