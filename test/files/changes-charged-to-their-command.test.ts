// Issue 26, item 7: "a path longer than PATH_MAX makes 'could not check what the command
// changed' and that command's other changes are charged to the next one. Charge changes to the
// command that made them where it can be known."
//
// Real git repository, real Bash commands through the Bash tool, real file history and rewind.
import { execFileSync } from 'node:child_process'
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
