// Issue 26, item 14: "a data home named `<ws>/..x` passes the 'data home inside the workspace'
// refusal (`rel.startsWith('..')`), while `isUnder` refuses real names like `..env`;
// `/proc/self/cwd` is accepted as a workspace and kept in `recentWorkspaces` as that string."
//
// A name starting with `..` is a name inside the folder (only `..` and `../…` lead out), for
// every check; a workspace named through /proc, /sys or /dev is refused as written, before the
// link it is resolved to.
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTool } from '../../src/core/agent/tools/read'
import { makeWorkspace } from '../support/tool-workspace'
import { runTool, type Tool } from '../../src/core/agent/tools/tool'
import { repoRoot, runCli, seedWorkspace } from '../support/cli'

const DEMO = `scripted:${join(repoRoot, 'demo/scripted-model.json')}`

describe('a name starting with ..', () => {
  it('as the data home inside the workspace, is refused as the data home', async () => {
    const { workspace } = seedWorkspace()
    const home = join(workspace, '..x')
    const run = await runCli(['chat', '--cwd', workspace, '--model', DEMO], {
      input: '/exit\n',
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(run.code).not.toBe(0)
    expect(run.stdout + run.stderr).toContain(
      `it holds Rewind Studio's data folder ${home}, whose session logs and backups the agent must not change`
    )
    expect(existsSync(home)).toBe(false)
  })

  it('as a file in the workspace, is read like any other', async () => {
    const ws = makeWorkspace()
    ws.put('..env', 'A=1\n')
    const out = await runTool(readTool as Tool, { file_path: '..env' }, ws.ctx)
    expect(out).toMatchObject({ isError: false, content: '     1\tA=1' })
    expect(ws.ctx.fileState.canEdit(join(ws.root, '..env'))).toBe(true)
  })
})

describe.skipIf(process.platform !== 'linux')('a workspace named through /proc', () => {
  it('is refused as written, and kept nowhere', async () => {
    const { workspace, home } = seedWorkspace()
    mkdirSync(home, { recursive: true })
    const run = await runCli(['chat', '--cwd', '/proc/self/cwd', '--model', DEMO], {
      input: '/exit\n',
      cwd: workspace,
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(run.code).not.toBe(0)
    expect(run.stdout + run.stderr).toContain(
      'Refused workspace "/proc/self/cwd": it is in /proc, the kernel\'s view of the system'
    )
    expect(readdirSync(home)).toEqual([])
  })
})
