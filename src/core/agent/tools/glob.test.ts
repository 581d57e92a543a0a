import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_GLOB_RESULTS, createGlobTool, globTool } from './glob'
import { makeWorkspace } from '../../../../test/support/tool-workspace'
import type { TestWorkspace } from '../../../../test/support/tool-workspace'
import { runTool } from './tool'
import type { Tool } from './tool'

const glob = globTool as Tool

/** Sets a file's modification time to `secondsAgo` before a fixed instant. */
function age(ws: TestWorkspace, rel: string, secondsAgo: number): void {
  const t = new Date(Date.UTC(2026, 0, 1) - secondsAgo * 1000)
  utimesSync(join(ws.root, rel), t, t)
}

function tree(): TestWorkspace {
  const ws = makeWorkspace()
  ws.put('.gitignore', 'node_modules\n*.log\n!keep.log\n')
  ws.put('src/a.ts', '')
  ws.put('src/b.ts', '')
  ws.put('src/deep/c.ts', '')
  ws.put('src/deep/.gitignore', 'generated.ts\n')
  ws.put('src/deep/generated.ts', '')
  ws.put('top.ts', '')
  ws.put('debug.log', '')
  ws.put('keep.log', '')
  ws.put('.env.ts', '')
  ws.put('node_modules/lib/index.ts', '')
  ws.put('.git/hooks/x.ts', '')
  age(ws, 'src/a.ts', 30)
  age(ws, 'src/b.ts', 10)
  age(ws, 'src/deep/c.ts', 20)
  age(ws, 'top.ts', 40)
  age(ws, '.env.ts', 50)
  return ws
}

describe('Glob refuses', () => {
  it('a folder outside the workspace, a missing folder, a file as folder, an absolute pattern', async () => {
    const ws = tree()
    const outside = await runTool(glob, { pattern: '*', path: ws.base }, ws.ctx)
    expect(outside.content).toMatch(/^Refused path .*outside the workspace/)
    expect((await runTool(glob, { pattern: '*', path: 'nope' }, ws.ctx)).content).toBe(
      'Path does not exist: nope'
    )
    expect((await runTool(glob, { pattern: '*', path: 'top.ts' }, ws.ctx)).content).toBe(
      'top.ts is not a folder.'
    )
    expect((await runTool(glob, { pattern: '/etc/*' }, ws.ctx)).content).toBe(
      'The pattern must be relative; put the folder to search in `path`.'
    )
    expect((await runTool(glob, { pattern: '**', path: '.git' }, ws.ctx)).content).toMatch(
      /\.git folder/
    )
  })
})

describe('Glob', () => {
  it('stops when the call is cancelled', async () => {
    const ws = tree()
    ws.abort.abort()
    await expect(globTool.execute({ pattern: '**' }, ws.ctx)).rejects.toThrow('Glob was cancelled.')
  })

  it('lists matches newest first, honouring .gitignore at every level, skipping .git', async () => {
    const ws = tree()
    const out = await runTool(glob, { pattern: '**/*.ts' }, ws.ctx)
    expect(out).toEqual({
      isError: false,
      content: ['src/b.ts', 'src/deep/c.ts', 'src/a.ts', 'top.ts', '.env.ts'].join('\n'),
      details: { count: 5 }
    })
    expect((await runTool(glob, { pattern: '*.log' }, ws.ctx)).content).toBe('keep.log')
  })

  it('matches relative to path, top level only without **', async () => {
    const ws = tree()
    expect((await runTool(glob, { pattern: '*.ts', path: 'src' }, ws.ctx)).content).toBe(
      'src/b.ts\nsrc/a.ts'
    )
    expect((await runTool(glob, { pattern: '*.md' }, ws.ctx)).content).toBe('No files found')
  })

  it('walks an ignored folder when asked for it by path', async () => {
    const ws = tree()
    expect((await runTool(glob, { pattern: '**', path: 'node_modules' }, ws.ctx)).content).toBe(
      'node_modules/lib/index.ts'
    )
  })

  it('does not follow symlinks, even inside the workspace', async () => {
    const ws = tree()
    mkdirSync(join(ws.base, 'outside'))
    writeFileSync(join(ws.base, 'outside', 'leak.ts'), '')
    symlinkSync(join(ws.base, 'outside'), join(ws.root, 'out'))
    symlinkSync(join(ws.root, 'src'), join(ws.root, 'src-again'))
    const out = await runTool(glob, { pattern: '**/*.ts' }, ws.ctx)
    expect(out.content).not.toContain('leak')
    expect(out.content).not.toContain('src-again')
  })

  it(`stops at ${MAX_GLOB_RESULTS} paths and says how many more there are`, async () => {
    const ws = makeWorkspace()
    for (let i = 0; i < MAX_GLOB_RESULTS + 5; i += 1)
      ws.put(`f${String(i).padStart(3, '0')}.txt`, '')
    const out = await runTool(glob, { pattern: '*.txt' }, ws.ctx)
    const lines = out.content.split('\n')
    expect(lines).toHaveLength(MAX_GLOB_RESULTS + 1)
    expect(lines.at(-1)).toBe('(5 more not shown: use a more specific pattern or path.)')
    expect(out.details).toEqual({ count: MAX_GLOB_RESULTS + 5 })
  })

  it('searches an allowed outside root, showing absolute paths', async () => {
    const ws = makeWorkspace()
    const shared = join(ws.base, 'shared')
    mkdirSync(shared)
    writeFileSync(join(shared, 'n.md'), '')
    ws.ctx.allowedOutsideRoots = [shared]
    expect((await runTool(glob, { pattern: '*.md', path: shared }, ws.ctx)).content).toBe(
      join(shared, 'n.md')
    )
  })
})

describe('Glob on a pattern that takes for ever on a long name', () => {
  // Ten stars: the matcher tries every way to place ten "a" in a name of sixty.
  const manyStars = '*a*a*a*a*a*a*a*a*a*a*b'

  it('answers at its time limit with the files found before it', async () => {
    const ws = makeWorkspace()
    ws.put('aaaaaaaaaab', '')
    ws.put(`c${'a'.repeat(60)}`, '')
    const out = await runTool(createGlobTool(1000) as Tool, { pattern: manyStars }, ws.ctx)
    expect(out).toEqual({
      isError: false,
      content:
        'aaaaaaaaaab\n(Search stopped after 1 s: files after these were not searched. ' +
        'Narrow the path, or simplify the pattern: nested repetition such as (a+)+ or many stars in one name can take for ever.)',
      details: { count: 1, timedOut: true }
    })
  })

  it('ends when the call is cancelled while it matches', async () => {
    const ws = makeWorkspace()
    ws.put(`c${'a'.repeat(60)}`, '')
    const running = runTool(glob, { pattern: manyStars }, ws.ctx)
    setTimeout(() => ws.abort.abort(), 300)
    expect(await running).toEqual({ isError: true, content: 'Glob was cancelled.' })
  })
})
