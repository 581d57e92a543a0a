// Issue 26, item 4: "Bash changes to ignored files are lost, silently (high). With .env, build/
// and *.log in .gitignore, the agent's Bash runs `rm -rf build .env; echo overwritten > app.log;
// echo v2 > main.c`. The report says only 'Modified: main.c'; `rewind --to 2` says 'Rewound';
// .env stays gone and app.log keeps the overwritten text. Even build/config.json, which the agent
// itself wrote with Write (and which was backed up), is gone."
//
// Rule: what git ignores is backed up within a budget (setting ignoredFiles), outside folders
// never walked (node_modules…); a file any tool backed up stays covered; every command's report
// names what it changed that was not backed up, by folder with counts. Real git repositories,
// real Bash commands through the Bash tool, real file history and rewinds.
import { chmodSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sha256 } from '../../src/core/files/blob-store'
import { ignoredFilesPolicy } from '../../src/core/files/ignored-files'
import { type ToolSession, type ToolSessionOptions, openToolSession } from '../support/tool-session'

const open: ToolSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})
async function session(options: ToolSessionOptions): Promise<ToolSession> {
  const s = await openToolSession(options)
  open.push(s)
  return s
}

const GITIGNORE = '.env\nbuild/\n*.log\nnode_modules/\n'
const SKIPPED = '(a folder file history never walks, setting ignoredFiles.skipFolders)'

describe('a command changing files git ignores', () => {
  it('backs them up, reports them, and a rewind gives each one back byte for byte', async () => {
    const s = await session({
      files: {
        '.gitignore': GITIGNORE,
        '.env': 'SECRET=hunter2\n',
        'app.log': 'line 1\nline 2\n',
        'main.c': 'int main() { return 1; }\n'
      }
    })
    chmodSync(join(s.cwd, '.env'), 0o600)
    s.prompt('write the config')
    expect((await s.write('build/config.json', '{"port": 8080}\n')).isError).toBe(false)
    s.reply('ok')
    s.prompt('clean up')
    const out = await s.bash('rm -rf build .env; echo overwritten > app.log; echo v2 > main.c')
    expect(out.content).toBe(
      '(no output)\n\nFiles changed by the command:\nModified: app.log, main.c\nDeleted: .env, build/config.json'
    )
    s.reply('done')

    const { plan } = await s.rewindTo(2)
    expect(plan.unrestorable).toEqual([])
    expect(s.read('.env')?.toString()).toBe('SECRET=hunter2\n')
    expect(statSync(join(s.cwd, '.env')).mode & 0o777).toBe(0o600)
    expect(s.read('app.log')?.toString()).toBe('line 1\nline 2\n')
    expect(s.read('build/config.json')?.toString()).toBe('{"port": 8080}\n')
    expect(s.read('main.c')?.toString()).toBe('int main() { return 1; }\n')
  })

  it('names, by folder with counts, the ignored files past the budget it changed', async () => {
    const build = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`build/out${i}.o`, `object ${i}\n`])
    )
    // Three ignored files backed up: .env and app.log at the root first, then one of build/.
    const s = await session({
      files: { '.gitignore': GITIGNORE, '.env': 'A=1\n', 'app.log': 'log\n', ...build },
      ignoredFiles: ignoredFilesPolicy({ maxFiles: 3 })
    })
    s.prompt('rebuild')
    const out = await s.bash(
      'rm -rf build && mkdir -p build/new && touch build/new/a.o build/new/b.o'
    )
    const lines = out.content.split('\n')
    // The backed-up one is gone, which leaves room in the budget for one of the new files.
    expect(lines.filter((l) => /^(Created|Deleted): /.test(l))).toEqual([
      expect.stringMatching(/^Created: build\/new\/[ab]\.o$/),
      expect.stringMatching(/^Deleted: build\/out\d\.o$/)
    ])
    expect(lines.filter((l) => l.startsWith('Not backed up'))).toEqual([
      'Not backed up (a rewind cannot restore them): build/: 10 ignored files (over the backup budget for ignored files: 3 files, 20 MB, setting ignoredFiles)'
    ])
    s.reply('ok')
    // The one backed up comes back; the others a rewind cannot restore, and it says so.
    const { plan } = await s.rewindTo(1)
    expect(plan.unrestorable).toEqual([
      {
        path: 'build/',
        reason:
          'a command changed it and file history could not back it up (10 ignored files, over the backup budget for ignored files: 3 files, 20 MB, setting ignoredFiles)'
      }
    ])
    const back = Object.keys(build).filter((rel) => s.read(rel) !== null)
    expect(back).toHaveLength(1)
    expect(s.read(back[0] as string)?.toString()).toBe(build[back[0] as string])
  })

  it('never walks a skip folder, and says when one changes', async () => {
    const dep = 'module.exports = 42 // a dependency\n'
    const s = await session({
      files: { '.gitignore': GITIGNORE, 'node_modules/dep/index.js': dep, 'src/a.js': '1\n' }
    })
    expect(await s.history.blobs.has(sha256(Buffer.from(dep)))).toBe(false)
    s.prompt('install')
    const added = await s.bash('mkdir node_modules/other && echo 1 > node_modules/other/i.js')
    expect(added.content).toBe(
      `(no output)\n\nFiles changed by the command:\nNot backed up (a rewind cannot restore them): node_modules/: changed ${SKIPPED}`
    )
    const removed = await s.bash('rm -rf node_modules && echo 2 > src/a.js')
    expect(removed.content).toBe(
      `(no output)\n\nFiles changed by the command:\nModified: src/a.js\nNot backed up (a rewind cannot restore them): node_modules/: changed ${SKIPPED}`
    )
    expect(await s.history.blobs.has(sha256(Buffer.from(dep)))).toBe(false)
  })

  it('keeps covering a file a tool backed up, in a skip folder and past the budget', async () => {
    const s = await session({
      files: { '.gitignore': GITIGNORE, 'node_modules/dep/index.js': 'original\n' },
      ignoredFiles: ignoredFilesPolicy({ maxFiles: 0 })
    })
    s.prompt('patch')
    expect((await s.write('node_modules/dep/patch.js', 'patched\n')).isError).toBe(false)
    expect((await s.write('build/keep.txt', 'kept\n')).isError).toBe(false)
    s.reply('ok')
    s.prompt('break it')
    const changed = await s.bash('echo broken > node_modules/dep/patch.js')
    expect(changed.content).toBe(
      '(no output)\n\nFiles changed by the command:\nModified: node_modules/dep/patch.js'
    )
    const gone = await s.bash('rm -rf node_modules build')
    expect(gone.content.split('\n')).toEqual([
      '(no output)',
      '',
      'Files changed by the command:',
      'Deleted: build/keep.txt, node_modules/dep/patch.js',
      `Not backed up (a rewind cannot restore them): node_modules/: changed ${SKIPPED}`
    ])
    s.reply('ok')
    await s.rewindTo(2)
    expect(s.read('node_modules/dep/patch.js')?.toString()).toBe('patched\n')
    expect(s.read('build/keep.txt')?.toString()).toBe('kept\n')
  })
  it('keeps covering it in the next process that resumes the session', async () => {
    const first = await session({
      files: { '.gitignore': GITIGNORE, 'node_modules/dep/a.js': '1\n' }
    })
    first.prompt('patch')
    await first.write('node_modules/dep/patch.js', 'patched\n')
    first.reply('ok')
    open.pop()
    const s = await first.reopen()
    open.push(s)
    s.prompt('clean')
    const gone = await s.bash('rm -rf node_modules')
    expect(gone.content).toMatch(/\nDeleted: node_modules\/dep\/patch\.js\n/)
    s.reply('ok')
    await s.rewindTo(2)
    expect(s.read('node_modules/dep/patch.js')?.toString()).toBe('patched\n')
  })
})
