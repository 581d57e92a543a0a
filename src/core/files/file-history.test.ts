import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sha256 } from './blob-store'
import { type FileChange, FileHistory, NoCheckpointError } from './file-history'
import { type IgnoredFilesPolicy, ignoredFilesPolicy } from './ignored-files'

const open: FileHistory[] = []

afterEach(async () => {
  for (const history of open.splice(0)) await history.close()
})

async function setup(
  files: Record<string, string> = {},
  sizeCapBytes?: number,
  ignoredFiles?: IgnoredFilesPolicy
) {
  const base = mkdtempSync(join(tmpdir(), 'rs-fh-'))
  const cwd = join(base, 'ws')
  const home = join(base, 'home')
  mkdirSync(cwd)
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(cwd, rel, '..'), { recursive: true })
    writeFileSync(join(cwd, rel), text)
  }
  const records: FileChange[] = []
  const history = await FileHistory.open({
    home,
    cwd,
    sessionId: 's1',
    log: { appendFileChanges: (c: readonly FileChange[]) => records.push(...c) },
    ...(sizeCapBytes === undefined ? {} : { sizeCapBytes }),
    ...(ignoredFiles === undefined ? {} : { ignoredFiles })
  })
  open.push(history)
  history.beginCheckpoint('p1')
  const sh = async (command: string) => {
    await history.beforeCommand('Bash')
    execFileSync('sh', ['-c', command], { cwd })
    return history.afterCommand('Bash')
  }
  const write = async (rel: string, text: string) => {
    await history.beforeWrite(join(cwd, rel), 'Write', text)
    mkdirSync(join(cwd, rel, '..'), { recursive: true })
    writeFileSync(join(cwd, rel), text)
    await history.afterWrite(join(cwd, rel), 'Write')
  }
  return { base, cwd, home, history, records, sh, write }
}

describe('FileHistory: Write/Edit hooks', () => {
  it('refuses a write outside the workspace, naming the path, and records nothing', async () => {
    const { base, history, records } = await setup()
    const outside = join(base, 'elsewhere.txt')
    await expect(history.beforeWrite(outside, 'Write', 'x')).rejects.toThrow(outside)
    expect(records).toEqual([])
  })

  it('refuses a write when no checkpoint is open', async () => {
    const { cwd, home } = await setup()
    const history = await FileHistory.open({
      home,
      cwd,
      sessionId: 's2',
      log: { appendFileChanges: () => undefined }
    })
    open.push(history)
    await expect(history.beforeWrite(join(cwd, 'a'), 'Write', 'x')).rejects.toThrow(
      NoCheckpointError
    )
  })

  it('refuses the write when the backup cannot be stored (blob store unusable)', async () => {
    const { cwd, history, records } = await setup({ 'a.txt': 'old' })
    // The blob folder is a plain file: every put fails with a real file-system error.
    mkdirSync(join(history.paths.root), { recursive: true })
    writeFileSync(history.paths.blobs, 'not a folder')
    await expect(history.beforeWrite(join(cwd, 'a.txt'), 'Edit', 'new')).rejects.toThrow(
      /ENOTDIR|EEXIST/
    )
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('old')
    expect(records).toEqual([])
  })

  it('refuses to edit a file over the size cap (it could not be restored)', async () => {
    const { cwd, history } = await setup({ 'big.bin': 'x'.repeat(2000) }, 1000)
    await expect(history.beforeWrite(join(cwd, 'big.bin'), 'Edit', 'y')).rejects.toThrow(
      /backup cap/
    )
  })

  it('records a created file as absent before, and a modified one with both hashes', async () => {
    const { records, write, history } = await setup({ 'config.py': 'DEBUG = True\n' })
    await write('utils.py', 'def f(): pass\n')
    await write('config.py', 'TIMEOUT = 30\n')
    expect(records.map((r) => [r.path, r.before === null, r.after === null, r.source])).toEqual([
      ['utils.py', true, false, 'Write'],
      ['config.py', false, false, 'Write']
    ])
    const config = records[1]
    expect((await history.blobs.get(config?.before ?? '')).toString()).toBe('DEBUG = True\n')
    expect((await history.blobs.get(config?.after ?? '')).toString()).toBe('TIMEOUT = 30\n')
  })

  it('records a write through a symlink, and a new file in a linked folder, under the real path', async () => {
    const { cwd, records, write, history } = await setup({ 'real/a.txt': 'one\n' })
    chmodSync(join(cwd, 'real/a.txt'), 0o640)
    symlinkSync('real/a.txt', join(cwd, 'alias.txt'))
    symlinkSync('real', join(cwd, 'linked'))
    await write('alias.txt', 'two\n')
    await write('linked/new.txt', 'new\n')
    expect(records.map((r) => [r.path, r.beforeMode, r.afterMode])).toEqual([
      ['real/a.txt', 0o640, 0o640],
      ['real/new.txt', undefined, expect.any(Number)]
    ])
    const [changed, created] = records
    expect((await history.blobs.get(changed?.before ?? '')).toString()).toBe('one\n')
    expect((await history.blobs.get(changed?.after ?? '')).toString()).toBe('two\n')
    expect(created?.before).toBeNull()
    expect((await history.blobs.get(created?.after ?? '')).toString()).toBe('new\n')
  })
})

describe('FileHistory: Bash changes', () => {
  it('sees sed -i, mv, rm and a new file in a new folder, with restorable before-content', async () => {
    const { sh, records, history } = await setup({
      'a.txt': 'hello\n',
      'b.txt': 'move me\n',
      'c.txt': 'delete me\n',
      'keep.txt': 'untouched\n'
    })
    const changes = await sh(
      "sed -i 's/hello/bye/' a.txt && mv b.txt moved.txt && rm c.txt && mkdir -p new/deep && echo hi > new/deep/f.txt"
    )
    expect(changes).toEqual({
      created: ['moved.txt', 'new/deep/f.txt'],
      modified: ['a.txt'],
      deleted: ['b.txt', 'c.txt'],
      untracked: [],
      notBackedUp: [],
      warnings: [],
      unknownOrigin: []
    })
    const a = records.find((r) => r.path === 'a.txt')
    expect((await history.blobs.get(a?.before ?? '')).toString()).toBe('hello\n')
    expect(records.every((r) => r.source === 'Bash' && r.checkpointUuid === 'p1')).toBe(true)
  })

  it('backs up what .gitignore ignores within the budget, and never looks into .git', async () => {
    const { sh } = await setup({ '.gitignore': 'build/\n*.log\n', 'src/x.ts': '1' })
    const changes = await sh(
      'mkdir -p build .git && echo 1 > build/out.js && echo 1 > a.log && echo 1 > .git/HEAD && echo 2 > src/x.ts'
    )
    expect(changes).toEqual({
      created: ['a.log', 'build/out.js'],
      modified: ['src/x.ts'],
      deleted: [],
      untracked: [],
      notBackedUp: [],
      warnings: [],
      unknownOrigin: []
    })
  })

  it('reports a file over the size cap as untracked, never silently', async () => {
    const { sh } = await setup({}, 1000)
    const changes = await sh('head -c 5000 /dev/zero > big.bin && echo small > s.txt')
    expect(changes.created).toEqual(['s.txt'])
    expect(changes.untracked).toEqual([{ path: 'big.bin', reason: expect.stringMatching(/cap/) }])
  })

  it('does not count hand edits made between commands as the command’s changes', async () => {
    const { sh, cwd } = await setup({ 'a.txt': '1' })
    await sh('true')
    writeFileSync(join(cwd, 'a.txt'), 'hand edit')
    expect(await sh('echo new > b.txt')).toEqual({
      created: ['b.txt'],
      modified: [],
      deleted: [],
      untracked: [],
      notBackedUp: [],
      warnings: [],
      unknownOrigin: []
    })
  })

  it('takes the baseline ahead of time, and still sees hand edits made before the command', async () => {
    const { history, cwd, sh, records } = await setup({ 'a.txt': '1' })
    await Promise.all([history.prepareForCommands(), history.prepareForCommands()])
    writeFileSync(join(cwd, 'a.txt'), 'hand edit')
    expect(await sh('echo 2 > a.txt')).toEqual({
      created: [],
      modified: ['a.txt'],
      deleted: [],
      untracked: [],
      notBackedUp: [],
      warnings: [],
      unknownOrigin: []
    })
    const before = records.at(-1)?.before ?? ''
    expect((await history.blobs.get(before)).toString()).toBe('hand edit')
  })

  it('makes the backup store’s 256 shard folders ahead, private, so the first turns make none', async () => {
    const { history, write } = await setup({ 'a.txt': '1' })
    await history.prepareForCommands()
    const shards = readdirSync(history.blobs.dir).filter((name) => /^[0-9a-f]{2}$/.test(name))
    expect(shards).toHaveLength(256)
    expect(
      new Set(shards.map((name) => statSync(join(history.blobs.dir, name)).mode & 0o777))
    ).toEqual(new Set([0o700]))
    // A shard gc emptied and removed meanwhile is made again by the backup that needs it.
    for (const name of shards) rmSync(join(history.blobs.dir, name), { recursive: true })
    await write('b.txt', 'new file')
    const hash = sha256(Buffer.from('new file'))
    expect((await history.blobs.get(hash)).toString()).toBe('new file')
  })

  it('closed while it prepares, writes nothing into the store after close returns', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`src/f${i}.ts`, `export const n = ${i}\n`])
    )
    const { history } = await setup(files)
    const listing = () => readdirSync(history.blobs.dir, { recursive: true }).map(String).sort()
    void history.prepareForCommands()
    await history.close()
    const afterClose = listing()
    // What a preparation still running would have made by now: shard folders, spare files.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(listing()).toEqual(afterClose)
    expect(afterClose.filter((name) => name.endsWith('.spare'))).toEqual([])
  })

  it('sees a folder renamed, then removed, and keeps watching the new name', async () => {
    const { sh } = await setup({ 'lib/a.ts': 'a', 'lib/deep/b.ts': 'b' })
    expect(await sh('mv lib src')).toEqual({
      created: ['src/a.ts', 'src/deep/b.ts'],
      modified: [],
      deleted: ['lib/a.ts', 'lib/deep/b.ts'],
      untracked: [],
      notBackedUp: [],
      warnings: [],
      unknownOrigin: []
    })
    expect((await sh('echo changed > src/deep/b.ts')).modified).toEqual(['src/deep/b.ts'])
    expect((await sh('rm -rf src')).deleted).toEqual(['src/a.ts', 'src/deep/b.ts'])
  })

  it('re-reads .gitignore when a command changes it', async () => {
    // No budget for ignored files: a file backed up before stays covered, a new one is not.
    const none = ignoredFilesPolicy({ maxFiles: 0 })
    const { sh } = await setup({ '.gitignore': '', 'x.log': '1' }, undefined, none)
    expect(await sh("echo '*.log' >> .gitignore && echo 2 > x.log && echo 3 > y.log")).toEqual({
      created: [],
      modified: ['.gitignore', 'x.log'],
      deleted: [],
      untracked: [],
      notBackedUp: [
        { folder: './', files: 1, reason: expect.stringMatching(/^over the backup budget/) }
      ],
      warnings: [],
      unknownOrigin: []
    })
  })

  it('names an ignored folder it left unread (past 1,000 ignored folders) when it goes', async () => {
    const files: Record<string, string> = { '.gitignore': 'gen/\n' }
    for (let i = 0; i < 1_010; i++) files[`gen/d${i}/f.txt`] = `${i}\n`
    const { sh } = await setup(files)
    const changes = await sh('rm -rf gen')
    // gen/ and 999 of its folders were read (and their files backed up); the rest was not.
    expect(changes.deleted).toHaveLength(999)
    expect(changes.notBackedUp).toEqual([
      {
        folder: 'gen/',
        files: null,
        reason: expect.stringMatching(/^past the 20,000 ignored files or 1,000 ignored folders/)
      }
    ])
  })

  it('sees 1,000 changes of one command across nested folders made and removed, and tracks the new ones', async () => {
    // 2,000 files in 40 folders two levels deep (p0/q0 … p3/q9), 50 each.
    const files: Record<string, string> = {}
    const folder = (k: number) => `p${k % 4}/q${Math.floor(k / 4)}`
    for (let k = 0; k < 40; k++) {
      for (let i = 0; i < 50; i++) files[`${folder(k)}/f${i}.txt`] = `file ${k}/${i}\n`
    }
    const { sh } = await setup(files)
    const sorted = (paths: string[]) => [...paths].sort()
    const range = (n: number) => Array.from({ length: n }, (_, i) => i)
    // 400 edited (folders 0-7), 300 created in 30 new folders three levels deep, 300 deleted
    // (folders 34-39 removed whole).
    const edited = range(8).flatMap((k) => range(50).map((i) => `${folder(k)}/f${i}.txt`))
    const created = range(30).flatMap((n) => range(10).map((i) => `new${n % 3}/a${n}/b/g${i}.txt`))
    const deleted = range(6).flatMap((k) => range(50).map((i) => `${folder(34 + k)}/f${i}.txt`))
    const script = [
      `for k in ${range(8).map(folder).join(' ')}; do sed -i 's/file/edited/' $k/*.txt; done`,
      `for n in ${range(30).join(' ')}; do d=new$((n % 3))/a$n/b; mkdir -p $d; for i in ${range(10).join(' ')}; do echo $n > $d/g$i.txt; done; done`,
      `rm -rf ${range(6)
        .map((k) => folder(34 + k))
        .join(' ')}`
    ].join(' && ')
    const changes = await sh(script)
    expect(changes.modified).toEqual(sorted(edited))
    expect(sorted(changes.created)).toEqual(sorted(created))
    expect(sorted(changes.deleted)).toEqual(sorted(deleted))
    expect(changes.untracked).toEqual([])
    // The folders it made are watched, and a moved tree is seen whole, at both places.
    const inNew = (n: number) => created.filter((path) => path.startsWith(`new${n}/`))
    const moved = inNew(1).map((path) => path.replace('new1/', 'moved1/'))
    const next = await sh('rm -r new2 && mv new1 moved1 && mkdir -p p2/q8 && echo 1 > p2/q8/x')
    expect(sorted(next.created)).toEqual(sorted([...moved, 'p2/q8/x']))
    expect(sorted(next.deleted)).toEqual(sorted([...inNew(1), ...inNew(2)]))
    expect(next.modified).toEqual([])
    expect((await sh('echo again > moved1/a1/b/g0.txt')).modified).toEqual(['moved1/a1/b/g0.txt'])
  })

  it('sees a change inside a folder created by an earlier command', async () => {
    const { sh } = await setup()
    await sh('mkdir -p d1/d2 && echo 1 > d1/d2/x')
    expect((await sh('echo 2 > d1/d2/x && echo 3 > d1/d2/y')).created).toEqual(['d1/d2/y'])
  })
})
