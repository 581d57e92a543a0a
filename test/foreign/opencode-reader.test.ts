// OpenCode 1.18.33's sessions, made by the real CLI (test/fixtures/opencode/README.md): rows of its
// SQLite database (read without SQLite, nothing written), named `<database>#<session id>`; the
// prompts are its user messages, a fork (`run --continue --fork`) holds its copies of the first
// session's messages, the home is found as OpenCode finds it ($XDG_DATA_HOME/opencode), and a
// rescue restore takes the files from OpenCode's snapshots. The run could make no revert of
// OpenCode's own (README.md: its server answered nothing), so the restore is compared with the
// workspace the script saved right before the fork's prompt (workspace-before-fork/).
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { Sources } from '../../src/core/sources/discovery'
import { openCodeDatabase, sourceHomes } from '../../src/core/sources/homes'
import { runCli } from '../support/cli'
import { fingerprint } from './cc-fixtures'
import { TOOL_FIXTURES, contents, openCodeHome } from './tool-homes'
import { statSync, truncateSync } from 'node:fs'
import { join } from 'node:path'

const FIRST = 'ses_dcbdb4ef9ffewnZlETLnMy6hQS'
const FORK = 'ses_dcbda7f43ffeEmQyDZegIgADxx'

describe('OpenCode sessions', () => {
  it('reads its prompts and file changes from the database, the fork with its copies', () => {
    const oc = openCodeHome('workspace-after')
    const first = readSessionFile(`${oc.db}#${FIRST}`)
    expect(first.format).toBe('opencode')
    expect(first.problems).toEqual([])
    expect(first.tree.header?.cwd).toBe(oc.ran)
    // make/make.sh passed the prompts with their quotes: OpenCode stored them so (export-*.json).
    expect(first.tree.checkpoints().map((c) => [c.prompt, c.filesChanged])).toEqual([
      ['"write the config"', 1],
      ['"change the mode"', 1]
    ])
    const fork = readSessionFile(`${oc.db}#${FORK}`)
    expect(fork.tree.checkpoints().map((c) => c.prompt)).toEqual([
      '"write the config"',
      '"change the mode"',
      '"on the fork"'
    ])
  })

  it('is found in $XDG_DATA_HOME/opencode and listed for its workspace, as `session list` lists it', () => {
    const oc = openCodeHome('workspace-after')
    const homes = sourceHomes(oc.home, oc.env)
    expect(homes.opencode).toBe(oc.toolHome)
    expect(openCodeDatabase(homes, oc.env)).toBe(oc.db)
    const sources = new Sources({ home: oc.home, homes, persist: false })
    const project = sources.projects().find((p) => p.cwd === oc.ran)
    expect(project?.folders).toEqual([{ source: 'opencode', folder: oc.db, sessions: 2 }])
    expect(sources.sourceOf(`${oc.db}#${FIRST}`)).toBe('opencode')
    expect(sources.sourceOf(`${oc.db}#ses_nope`)).toBe('opencode')
    expect(sources.sourceOf(`${join(oc.base, 'elsewhere.db')}#${FIRST}`)).toBeNull()
  })

  // The foreign sweep (stop 46): a damaged database (cut short) hid every OpenCode session of
  // every project, in `sessions` and the app, without a word. It is named in the list now, with
  // why, as no session to open; an intact one names nothing of the kind.
  it('names a database it cannot read in the workspace list, with why, and opens nothing from it', async () => {
    const oc = openCodeHome('workspace-after')
    const intact = new Sources({
      home: oc.home,
      homes: sourceHomes(oc.home, oc.env),
      persist: false
    })
    expect(intact.workspaceSessions(oc.ran).every((s) => s.problem === null)).toBe(true)
    truncateSync(oc.db, Math.floor(statSync(oc.db).size / 2))
    const damaged = new Sources({
      home: oc.home,
      homes: sourceHomes(oc.home, oc.env),
      persist: false
    })
    const listed = damaged.workspaceSessions(oc.ran)
    expect(listed.map((s) => [s.source, s.file])).toEqual([['opencode', oc.db]])
    expect(listed[0]?.problem).toMatch(
      /^OpenCode's database could not be read \(.+\): none of its sessions, of any project, is listed$/
    )
    // In any workspace's list, the command's too.
    const run = await runCli(['sessions', '--cwd', oc.workspace], { env: oc.env })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("opencode         0  OpenCode's database could not be read (")
    expect(run.stdout).toContain(`    ${oc.db}`)
  })

  it("restores from OpenCode's snapshots the files as they were before a prompt", async () => {
    const oc = openCodeHome('workspace-after')
    const toolBefore = fingerprint(oc.toolHome)
    const session = `${oc.db}#${FORK}`
    const dry = await runCli(
      ['rewind', session, '--to', '3', '--cwd', oc.workspace, '--dry-run', '--json'],
      {
        env: oc.env
      }
    )
    expect(dry.stderr).toBe('')
    // fork.txt as the last step left it is in OpenCode's snapshot after that step.
    expect(JSON.parse(dry.stdout)).toEqual({
      restore: [],
      delete: ['fork.txt'],
      recreate: [],
      outsideChanges: [],
      skipped: []
    })
    const applied = await runCli(['rewind', session, '--to', '3', '--cwd', oc.workspace], {
      env: oc.env
    })
    expect(applied.code).toBe(0)
    expect(contents(oc.workspace)).toEqual(
      contents(join(TOOL_FIXTURES, 'opencode', 'workspace-before-fork'))
    )
    const earlier = await runCli(['rewind', session, '--to', '2', '--cwd', oc.workspace], {
      env: oc.env
    })
    expect(earlier.code).toBe(0)
    expect(contents(oc.workspace)['config.txt']).toBe('mode=a\n')
    expect(fingerprint(oc.toolHome)).toEqual(toolBefore)
  })
})
