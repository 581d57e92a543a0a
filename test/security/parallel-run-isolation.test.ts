// Issue 30's isolation rules for parallel runs (docs/security.md rows name these tests):
//   - a run's tools resolve every path inside the run's own workspace: a Write to the user's
//     file by its absolute path is refused, the user's file unchanged;
//   - with bash.sandbox on, a run's Bash cannot write into the user's workspace;
//   - a run's --check gets no API key in its environment;
//   - the run workspace is the only folder inside the data home (besides the demo) that may be
//     a workspace: its manifest and log folder, and the runs folder itself, are refused;
//   - a copy never hard-links the user's files and copies a symlink as a link; removing a run's
//     workspace never follows a link into the user's files.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BlobStore } from '../../src/core/files/blob-store'
import { checkWorkspaceFolder } from '../../src/core/files/workspace-root'
import { makeRunWorkspace, removeRunWorkspace } from '../../src/core/parallel/run-workspace'
import { runsDir } from '../../src/core/session/paths'
import { bashSandboxUnavailable } from '../../src/core/os/bash-sandbox'
import { loopbackEnv, runCli } from '../support/cli'
import { type MessagesServer, startMessagesServer } from '../support/messages-server'
import { parseRuns, snapshot, startingPoint } from '../parallel/fixture'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

function scriptFor(base: string, match: string, tool: { name: string; input: object }): string {
  const file = join(base, `${match}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      rules: [
        {
          match,
          responses: [[{ type: 'tool_use', ...tool }], [{ type: 'text', text: 'tried' }]]
        }
      ]
    })
  )
  return `scripted:${file}`
}

/** The tool results a run's log holds (what the model was told). */
function toolResults(home: string): string {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const abs = join(dir, name)
      if (lstatSync(abs).isDirectory()) walk(abs)
      else if (name.endsWith('.jsonl')) out.push(readFileSync(abs, 'utf8'))
    }
  }
  walk(join(home, 'runs'))
  return out.join('\n')
}

describe('a parallel run is confined to its own workspace', () => {
  it("refuses a Write to the user's file by its absolute path", async () => {
    const s = await startingPoint(false)
    const before = snapshot(s.workspace)
    const model = scriptFor(s.base, 'escape', {
      name: 'Write',
      input: { file_path: join(s.workspace, 'keep.txt'), content: 'overwritten by a run\n' }
    })
    const runs = parseRuns(
      await s.cli('parallel', s.file, '--prompt', 'escape', '--model', model, '--json')
    )
    expect(runs[0]?.state).toBe('done')
    expect(runs[0]?.files).toEqual([])
    expect(toolResults(s.home)).toContain('outside the workspace')
    expect(snapshot(s.workspace)).toEqual(before)
  })

  it.skipIf(bashSandboxUnavailable() !== null)(
    "with bash.sandbox on, keeps a run's Bash from writing into the user's workspace",
    async () => {
      const s = await startingPoint(false)
      const before = snapshot(s.workspace)
      const model = scriptFor(s.base, 'escape', {
        name: 'Bash',
        input: { command: `echo pwned > ${join(s.workspace, 'keep.txt')}; echo inside > mine.txt` }
      })
      const runs = parseRuns(
        await s.cli(
          'parallel',
          s.file,
          '--prompt',
          'escape',
          '--model',
          model,
          '--permission-mode',
          'bypassPermissions',
          '--setting',
          'bash.sandbox=true',
          '--json'
        )
      )
      expect(runs[0]?.files).toEqual(['mine.txt'])
      expect(snapshot(s.workspace)).toEqual(before)
    }
  )

  it('gives its --check no API key', async () => {
    server = await startMessagesServer([], {
      answer: () => ({ kind: 'message', content: [{ type: 'text', text: 'nothing to do' }] })
    })
    const s = await startingPoint(false)
    const run = await runCli(
      [
        'parallel',
        s.file,
        '--prompt',
        'anything',
        '--model',
        'claude-test',
        '--check',
        'env | grep -c ANTHROPIC_API_KEY; true',
        '--json'
      ],
      { env: loopbackEnv(s.home, server.url) }
    )
    const [only] = parseRuns(run)
    expect(only?.state).toBe('done')
    expect(only?.check?.tail).toBe('0')
  })
})

describe('run workspaces in the data home', () => {
  it('accept a run’s work folder as a workspace and refuse every other folder of runs/', () => {
    const home = mkdtempSync(join(tmpdir(), 'rs-runs-home-'))
    const run = join(runsDir(home, '/some/project'), 'r1')
    mkdirSync(join(run, 'work', 'sub'), { recursive: true })
    mkdirSync(join(run, 'session'))
    expect(() => checkWorkspaceFolder(join(run, 'work'), home)).not.toThrow()
    expect(() => checkWorkspaceFolder(join(run, 'work', 'sub'), home)).not.toThrow()
    for (const refused of [run, join(run, 'session'), join(home, 'runs'), runsDir(home, '/x')]) {
      expect(() => checkWorkspaceFolder(refused, home)).toThrow(
        /inside Rewind Studio's data folder/
      )
    }
  })

  it('are copies that never hard-link, keep links as links, and are removed without following them', async () => {
    const base = mkdtempSync(join(tmpdir(), 'rs-runs-copy-'))
    const home = join(base, 'home')
    const user = join(base, 'user')
    const outside = join(base, 'outside')
    mkdirSync(user)
    mkdirSync(outside)
    writeFileSync(join(user, 'a.txt'), 'mine\n')
    writeFileSync(join(outside, 'precious.txt'), 'not the run’s\n')
    symlinkSync(outside, join(user, 'link-out'))
    const runDir = join(runsDir(home, user), 'r1')
    mkdirSync(runDir, { recursive: true })
    const made = await makeRunWorkspace({
      home,
      cwd: user,
      runDir,
      id: 'r1',
      repo: null,
      state: new Map(),
      blobs: new BlobStore(join(base, 'blobs'))
    })
    expect(made.kind).toBe('copy')
    expect(lstatSync(join(made.workspace, 'a.txt')).nlink).toBe(1)
    expect(lstatSync(join(made.workspace, 'link-out')).isSymbolicLink()).toBe(true)
    await removeRunWorkspace(home, { cwd: user, id: 'r1', repo: null, ref: null })
    expect(existsSync(made.workspace)).toBe(false)
    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('not the run’s\n')
    expect(readFileSync(join(user, 'a.txt'), 'utf8')).toBe('mine\n')
    await expect(
      removeRunWorkspace(home, { cwd: user, id: '..', repo: null, ref: null })
    ).rejects.toThrow(/not a run's folder/)
  })
})
