// /tree, /label and /fork in the terminal chat, with the scripted model, on the seed's session:
//
//   1 add TIMEOUT ─┬─ 3 drop DEBUG, create utils.py   (abandoned)
//                  └─ 2 only create utils.py           (active)
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../src/core/session/store'
import { chatIn, repoRoot, seedWorkspace } from './support/cli'

const script = join(repoRoot, 'test/fixtures/seed-walkthrough.json')

async function seeded() {
  const { workspace, home } = seedWorkspace()
  const chat = chatIn(workspace, `scripted:${script}`, { REWIND_STUDIO_HOME: home })
  const first = await chat(
    '给 config.py 加一个 TIMEOUT = 30\n顺便把 DEBUG 删掉，再建一个 utils.py\n/rewind 2\n只建 utils.py，DEBUG 先留着\n/exit\n'
  )
  expect(first.code).toBe(0)
  const config = () => readFileSync(join(workspace, 'config.py'), 'utf8')
  return { workspace, home, chat, config }
}

describe('chat /tree, /label, /fork', () => {
  it('/tree prints the turns with labels and marks, and continues from the one picked', async () => {
    const { home, workspace, chat, config } = await seeded()
    const run = await chat(
      '/label 3 dead end\n/label here\n/tree\n3\n/tree\n\n/exit\n',
      '--continue'
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Labelled “3. 顺便把 DEBUG 删掉，再建一个 utils.py”: dead end')
    expect(run.stdout).toContain('Labelled “2. 只建 utils.py，DEBUG 先留着”: here')
    const trees = run.stdout.split('❯ /tree').slice(1)
    expect(trees[0]).toMatch(/\* 1\. 给 config\.py 加一个 TIMEOUT = 30 {2}\(\w{8}\)/)
    expect(trees[0]).toMatch(/> 2\. 只建 utils\.py，DEBUG 先留着 {2}\[here\]/)
    expect(trees[0]).toMatch(/ {4}└ 3\. 顺便把 DEBUG 删掉，再建一个 utils\.py {2}\[dead end\]/)
    expect(trees[0]).toContain('Continuing from “2. 顺便把 DEBUG 删掉，再建一个 utils.py”')
    // The active path moved: the abandoned branch is now turn 2, and the files followed it.
    expect(trees[1]).toMatch(/> 2\. 顺便把 DEBUG 删掉，再建一个 utils\.py {2}\[dead end\]/)
    expect(trees[1]).toMatch(/└ 3\. 只建 utils\.py，DEBUG 先留着 {2}\[here\]/)
    expect(config()).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    const store = SessionStore.open(SessionStore.latest(home, workspace) as string, {
      readOnly: true
    })
    expect(
      store
        .tree()
        .checkpoints()
        .map((c) => c.prompt)
    ).toEqual(['给 config.py 加一个 TIMEOUT = 30', '顺便把 DEBUG 删掉，再建一个 utils.py'])
    store.close()
  })

  it('/tree continuing elsewhere summarizes the branch left when summary.onLeave says so', async () => {
    const { home, workspace, chat } = await seeded()
    const run = await chat(
      '/tree\n3\n/exit\n',
      '--continue',
      '--setting',
      'summary.onLeave=summarize'
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Summary of the branch left:')
    expect(run.stdout).toContain('│ ## Goal')
    const store = SessionStore.open(SessionStore.latest(home, workspace) as string, {
      readOnly: true
    })
    const tree = store.tree()
    const leaf = tree.get(tree.leafUuid ?? '')
    // The summary sits where the conversation now stands, linked to the leaf it summarizes.
    expect(leaf).toMatchObject({ type: 'branch_summary' })
    const left =
      (leaf?.type === 'branch_summary' && (leaf.details as { fromLeafUuid?: string })) || {}
    expect(tree.get(left.fromLeafUuid ?? '')).toBeDefined()
    store.close()
  })

  it('/fork N --restore continues in a new session at turn N with its files; /undo puts them back', async () => {
    const { home, workspace, chat, config } = await seeded()
    const origin = SessionStore.latest(home, workspace) as string
    const originLog = readFileSync(origin)
    const run = await chat('/fork 3 --restore\n/rewind\n/undo\n/exit\n', '--continue')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/Forked into session (\S+) /)
    expect(run.stdout).toContain('⎿ restored config.py')
    // In the fork, the checkpoints are the path to turn 3.
    expect(run.stdout).toContain('2. 顺便把 DEBUG 删掉，再建一个 utils.py  (changed 2 files)')
    expect(run.stdout).toContain('Undone')
    expect(config()).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    expect(readFileSync(origin)).toEqual(originLog)
    const sessions = SessionStore.list(home, workspace)
    expect(sessions).toHaveLength(2)
  })

  it('/fork without N forks here and leaves the files; bad arguments say what is wrong', async () => {
    const { chat, config } = await seeded()
    const before = config()
    const run = await chat(
      '/fork\n/rewind\n/fork 7\n/label 1 ' + 'x'.repeat(81) + '\n/exit\n',
      '--continue'
    )
    expect(run.stdout).toContain('The files were left as they are')
    expect(run.stdout).toContain('2. 只建 utils.py，DEBUG 先留着  (changed 1 file)')
    expect(run.stdout).toContain('✘ No turn 7: the turns are numbered 1 to 2')
    expect(run.stdout).toContain('✘ A label is at most 80 characters')
    expect(config()).toBe(before)
  })
})
