// Issue 26, item 7: "A setsid daemon's later writes are filed under the next command
// (documented); a path longer than PATH_MAX makes 'could not check what the command changed' and
// that command's other changes are charged to the next one. Charge changes to the command that
// made them where it can be known; say 'unknown origin' otherwise."
//
// Real git repository, real Bash commands through the Bash tool, real file history and rewind.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { type ToolSession, openToolSession } from '../support/tool-session'

const open: ToolSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.close()
    // Node's rm cannot reach past PATH_MAX; rm -r works down by relative names.
    execFileSync('rm', ['-rf', s.cwd])
  }
})
async function session(files: Record<string, string>): Promise<ToolSession> {
  const s = await openToolSession({ files })
  open.push(s)
  return s
}

/** 30 folders of 200 characters each, then a file: past Linux's 4,096-byte PATH_MAX. */
const DEEP = `mkdir deep && cd deep && for i in $(seq 1 30); do n=$(printf "%0200d" $i); mkdir $n && cd $n || exit 1; done; echo x > leaf.txt`

describe('a command that makes a path too long to look at', () => {
  it('names that path as not checked and keeps its other changes its own', async () => {
    const s = await session({ 'main.c': 'v1\n' })
    s.prompt('one')
    await s.bash('echo one > one.txt')
    s.reply('ok')
    s.prompt('two')
    const two = await s.bash(`echo v2 > main.c; (${DEEP})`)
    expect(two.content).not.toMatch(/could not check/)
    expect(two.content).toMatch(/\nModified: main\.c\n/)
    expect(two.content).toMatch(
      /Not tracked \(a rewind cannot restore it\): deep\/0+1\/.*\(could not be checked: its path is longer than the system allows \(ENAMETOOLONG\)\)/
    )
    s.reply('ok')
    s.prompt('three')
    const three = await s.bash('echo other > other.txt')
    // Turn 2's main.c is not turn 3's.
    expect(three.content).toMatch(/Files changed by the command:\nCreated: other\.txt$/)
    s.reply('ok')

    const { plan } = await s.rewindTo(2)
    expect(plan.files.map((f) => `${f.action} ${f.path}`)).toEqual([
      'restore main.c',
      'delete other.txt'
    ])
    expect(s.read('main.c')?.toString()).toBe('v1\n')
  })

  it('keeps seeing the rest of the workspace when it looks at all of it again', async () => {
    const s = await session({ 'a.txt': '1\n' })
    s.prompt('one')
    await s.bash(`(${DEEP})`)
    // A changed .gitignore makes file history walk the whole workspace again.
    const out = await s.bash('echo "*.tmp" > .gitignore; echo 2 > a.txt')
    expect(out.content).toMatch(
      /Files changed by the command:\nCreated: \.gitignore\nModified: a\.txt$/
    )
    expect((await s.bash('echo 3 > a.txt')).content).toMatch(/\nModified: a\.txt$/)
  })
})

/** Waits for a file the test's own daemon makes; the bound only keeps a broken run from hanging. */
async function until(file: string): Promise<void> {
  for (let i = 0; i < 400 && !existsSync(file); i++) await sleep(25)
  if (!existsSync(file)) throw new Error(`gave up waiting for ${file}`)
}

describe('a command that leaves a daemon running (setsid)', () => {
  it('names it, files its writes between commands under no command, and flags a command it ran beside', async () => {
    const s = await session({ 'a.txt': '1\n' })
    // Outside the workspace: the handshake is no change of anyone's.
    const at = (name: string) => join(dirname(s.cwd), name)
    const daemon = [
      `echo $$ > ${at('pid')}`,
      `until [ -e ${at('go1')} ]; do sleep 0.02; done; echo late > later.txt; touch ${at('done1')}`,
      `until [ -e ${at('go2')} ]; do sleep 0.02; done; echo during > during.txt; touch ${at('done2')}`
    ].join('; ')
    s.prompt('start the server')
    const one = await s.bash(
      `setsid sh -c '${daemon}' > /dev/null 2>&1 & until [ -e ${at('pid')} ]; do sleep 0.02; done; echo 2 > a.txt`
    )
    const pid = Number(readFileSync(at('pid'), 'utf8'))
    try {
      // The daemon's shell, and the sleep it may be starting or in.
      expect(one.content).toMatch(
        new RegExp(
          `\\nModified: a\\.txt\\n\\nStill running, outside the command's process group \\(setsid, a daemon\\): sh \\(process ${pid}\\)(, \\w+ \\(process \\d+\\))*\\. What changes between commands while it runs is reported at the next command as of unknown origin`
        )
      )
      s.reply('ok')
      // The daemon writes while no command runs.
      writeFileSync(at('go1'), '')
      await until(at('done1'))
      s.prompt('two')
      const two = await s.bash(
        `touch ${at('go2')}; until [ -e ${at('done2')} ]; do sleep 0.02; done; echo 3 > a.txt`
      )
      expect(two.content).toBe(
        [
          '(no output)',
          '',
          'Changed before the command, of unknown origin (a process an earlier command left running, or a hand edit), filed under no command: later.txt',
          '',
          'Files changed by the command:',
          'Created: during.txt',
          'Modified: a.txt',
          `Warning: sh (process ${pid}), left running by an earlier command, was running during this one: some of these changes may be its`
        ].join('\n')
      )
      s.reply('ok')
      // later.txt is nobody's change: no rewind deletes it.
      const { plan } = await s.rewindTo(1)
      expect(plan.files.map((f) => `${f.action} ${f.path}`)).toEqual([
        'restore a.txt',
        'delete during.txt'
      ])
      expect(s.read('later.txt')?.toString()).toBe('late\n')
    } finally {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Ended already.
      }
    }
  })
})
