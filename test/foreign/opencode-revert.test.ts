// OpenCode's /undo (its revert, session/revert.ts in its repository): it stores on the session
// `revert: {messageID, partID?, snapshot, diff}` and, until the next prompt cleans up, keeps every
// message; what the session resumes with is the messages before `messageID` and, with a `partID`,
// that message's parts before it (its cleanup() removes the rest). The real CLI made no revert
// offline (test/fixtures/opencode/README.md), so the session is the real one (its export laid out
// as OpenCode's JSON storage, and its database with the column set by make/revert.sh) with the
// `revert` OpenCode's code writes: our leaf is where OpenCode resumes, the reverted part stays in
// the tree as a branch, and a continue carries on from there.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { runCli } from '../support/cli'
import {
  OPENCODE_FIRST,
  OPENCODE_FORK,
  TOOL_FIXTURES,
  codexHome,
  openCodeHome,
  openCodeJsonHome
} from './tool-homes'

/** The first session's messages and parts (export-ses_dcbdb4ef9ffewnZlETLnMy6hQS.json). */
const SECOND_PROMPT = 'msg_234250e17001tckHjLaHATOYT1'
const FIRST_ANSWER = 'prt_23424e64b001fUvsCrWzubMNLG'
const EDIT_STEP = 'msg_2342538c1001sUahvDlLoj76De'
const EDIT_CALL = 'prt_234253c61001z4CCKH9sPMlznQ'
const EDIT_STEP_FINISH = 'prt_234254073001Qw1sGgertpWPQN'
const LAST_ANSWER = 'prt_234254699001W0rdgVNFfRCwRA'
/** The tree OpenCode's snapshot after the session's last step (what track() gives then). */
const AFTER_SESSION = 'd2937d2253fbfdf17041db594ed99e1805b85adc'

/** The real session in JSON storage, every message written, its session given `revert`. */
function reverted(revert: Record<string, string>) {
  const base = codexHome().base
  const workspace = join(base, 'ws')
  const oc = openCodeJsonHome(workspace, join(base, 'opencode'))
  oc.messages.forEach(oc.write)
  const info = JSON.parse(readFileSync(oc.sessionFile, 'utf8')) as Record<string, unknown>
  writeFileSync(
    oc.sessionFile,
    JSON.stringify({
      ...info,
      revert: { ...revert, snapshot: AFTER_SESSION, diff: 'diff --git a/config.txt b/config.txt' }
    })
  )
  return { file: oc.sessionFile, workspace, env: { REWIND_STUDIO_HOME: join(base, 'rs') } }
}

const ids = (file: string) =>
  readSessionFile(file)
    .tree.activePath()
    .map((r) => r.uuid)

describe("OpenCode's /undo (the session's revert)", () => {
  it('resumes before the reverted prompt: the undone turn is a branch off the leaf', () => {
    const { file } = reverted({ messageID: SECOND_PROMPT })
    const { tree, problems } = readSessionFile(file)
    expect(problems).toEqual([])
    expect(tree.leafUuid).toBe(FIRST_ANSWER)
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual(['"write the config"'])
    // Still there to look at and compare, on the branch /undo left.
    const undone = tree.leaves().find((leaf) => leaf !== FIRST_ANSWER) ?? null
    expect(tree.checkpoints(tree.pathTo(undone)).map((c) => c.prompt)).toEqual([
      '"write the config"',
      '"change the mode"'
    ])
  })

  it("resumes within a message when the revert names a part: that message's parts before it", () => {
    // What revert() stores for a part after which the message still holds a tool call.
    const { file } = reverted({ messageID: EDIT_STEP, partID: EDIT_STEP_FINISH })
    const path = ids(file)
    expect(path.at(-1)).toBe(`${EDIT_CALL}:result`)
    expect(path).not.toContain(LAST_ANSWER)
    expect(
      readSessionFile(file)
        .tree.checkpoints()
        .map((c) => c.prompt)
    ).toEqual(['"write the config"', '"change the mode"'])
  })

  it("reads the revert from OpenCode's database as well (its session row's revert column)", () => {
    // opencode-data-reverted/: the real database with that column set (make/revert.sh).
    const oc = openCodeHome('workspace-after')
    const reverted = join(TOOL_FIXTURES, 'opencode', 'opencode-data-reverted', 'opencode.db.gz')
    writeFileSync(oc.db, gunzipSync(readFileSync(reverted)))
    const { tree, problems } = readSessionFile(`${oc.db}#${OPENCODE_FIRST}`)
    expect(problems).toEqual([])
    expect(tree.leafUuid).toBe(FIRST_ANSWER)
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual(['"write the config"'])
    // The fork, not reverted, is as it was.
    expect(
      readSessionFile(`${oc.db}#${OPENCODE_FORK}`)
        .tree.checkpoints()
        .map((c) => c.prompt)
    ).toEqual(['"write the config"', '"change the mode"', '"on the fork"'])
  })

  it('is continued from where OpenCode resumes, not from the undone turn', async () => {
    const { file, workspace, env } = reverted({ messageID: SECOND_PROMPT })
    const continued = await runCli(['continue', file, '--cwd', workspace, '--json'], { env })
    expect(continued.stderr).toBe('')
    const ours = (JSON.parse(continued.stdout) as { file: string }).file
    const text = readFileSync(ours, 'utf8')
    expect(text).toContain('write the config')
    expect(text).not.toContain('change the mode')
  })
})
