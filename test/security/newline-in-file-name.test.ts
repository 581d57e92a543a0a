// Issue 26, item 14: "a newline in a file name forges lines in the rewind preview and in 'Files
// changed by the command'."
//
// The real CLI chat runs a command that makes a file whose name holds a newline and a line of
// the report after it; the command's report and `rewind --dry-run` then show the name on one
// line, escaped, and no line the name forged.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'
import { bashScript, runCli, seedWorkspace } from '../support/cli'

const FORGED = 'Deleted: config.py'

describe('a file name holding a newline', () => {
  it('is one line in the command report and in the rewind preview', async () => {
    const { workspace, home } = seedWorkspace()
    const chat = await runCli(
      [
        'chat',
        '--cwd',
        workspace,
        '--model',
        bashScript(`printf x > "$(printf 'new\\n${FORGED}')"`),
        '--permission-mode',
        'bypassPermissions'
      ],
      { input: 'run it\n', env: { REWIND_STUDIO_HOME: home } }
    )
    expect(chat.stdout).toContain('● ran it')
    const file = SessionStore.list(home, workspace)[0]?.file as string
    const report = JSON.parse(
      /"type":"tool_result","tool_use_id":"[^"]+","content":("(?:[^"\\]|\\.)*")/.exec(
        readFileSync(file, 'utf8')
      )?.[1] ?? '""'
    ) as string
    expect(report.split('\n')).toContain(`Created: new\\n${FORGED}`)
    expect(report.split('\n')).not.toContain(FORGED)

    const preview = await runCli(['rewind', file, '--to', '1', '--dry-run'], {
      env: { REWIND_STUDIO_HOME: home }
    })
    const lines = preview.stdout.split('\n')
    expect(lines).toContain(`  ⎿ delete (created after the checkpoint) new\\n${FORGED}`)
    expect(lines.some((line) => line.startsWith(FORGED))).toBe(false)
  })
})
