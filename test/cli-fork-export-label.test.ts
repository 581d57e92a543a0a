// fork, export and label through the real rewind-studio command, on the seed's session made by
// `cli chat` with the scripted model: two turns, /rewind 2, a third turn. Its tree:
//
//   1 add TIMEOUT ─┬─ 3 drop DEBUG, create utils.py   (abandoned)
//                  └─ 2 only create utils.py           (active: the conversation is here)
//
// The turns are numbered as the CLI numbers them: the active path's first, then the others.
import { spawnSync } from 'node:child_process'
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ExportModel } from '../src/core/export/export-model'
import { SessionStore } from '../src/core/session/store'
import { chatIn, repoRoot, runCli, seedWorkspace } from './support/cli'
import { corpusFile, haveCorpus } from './support/corpus'

const script = join(repoRoot, 'test/fixtures/seed-walkthrough.json')
const UTILS = 'def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n\n\n__all__ = ["clamp"]\n'

interface Seed {
  workspace: string
  home: string
  file: string
  cli: (...args: string[]) => ReturnType<typeof runCli>
  files: () => Record<string, string>
}

async function seed(): Promise<Seed> {
  const { workspace, home } = seedWorkspace()
  const env = { REWIND_STUDIO_HOME: home }
  const chat = chatIn(workspace, `scripted:${script}`, env)
  const run = await chat(
    '给 config.py 加一个 TIMEOUT = 30\n顺便把 DEBUG 删掉，再建一个 utils.py\n/rewind 2\n只建 utils.py，DEBUG 先留着\n/exit\n'
  )
  expect(run.code).toBe(0)
  const file = SessionStore.latest(home, workspace) as string
  return {
    workspace,
    home,
    file,
    cli: (...args) => runCli(args, { env }),
    files: () =>
      Object.fromEntries(
        readdirSync(workspace)
          .sort()
          .map((name) => [name, readFileSync(join(workspace, name), 'utf8')])
      )
  }
}

function openTree(file: string) {
  const store = SessionStore.open(file, { readOnly: true })
  const tree = store.tree()
  store.close()
  return { tree, header: store.header }
}

const prompts = (file: string) =>
  openTree(file)
    .tree.checkpoints()
    .map((c) => c.prompt)

describe('cli label', () => {
  let s: Seed
  beforeAll(async () => {
    s = await seed()
  }, 60_000)

  it('labels turns by number, shows them in inspect, and clears one', async () => {
    const labelled = await s.cli('label', s.file, '3', 'dead', 'end')
    expect(labelled.code).toBe(0)
    expect(labelled.stdout).toContain('Labelled “顺便把 DEBUG 删掉，再建一个 utils.py”: dead end')
    expect((await s.cli('label', s.file, '1', 'works')).code).toBe(0)
    const inspect = await s.cli('inspect', s.file)
    expect(inspect.stdout).toContain('[dead end]')
    expect(inspect.stdout).toContain('[works]')
    const cleared = await s.cli('label', s.file, '1', '--clear')
    expect(cleared.stdout).toContain('Label removed')
    expect([...openTree(s.file).tree.labels().values()]).toEqual(['dead end'])
  })

  it('refuses a label over the limit, an unknown turn and a missing text, changing nothing', async () => {
    const before = readFileSync(s.file)
    const long = await s.cli('label', s.file, '1', 'x'.repeat(81))
    expect(long.code).toBe(1)
    expect(long.stderr).toContain('A label is at most 80 characters; this one has 81')
    const unknown = await s.cli('label', s.file, '9', 'nope')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('No turn 9: the turns are numbered 1 to 3')
    expect((await s.cli('label', s.file, '1')).code).toBe(2)
    expect(readFileSync(s.file)).toEqual(before)
  })
})

describe('cli fork', () => {
  let s: Seed
  beforeAll(async () => {
    s = await seed()
  }, 60_000)

  it('forks the abandoned turn into a new session, leaving the files and FILE as they are', async () => {
    const before = { files: s.files(), log: readFileSync(s.file) }
    const run = await s.cli('fork', s.file, '--at', '3')
    expect(run.code).toBe(0)
    const forkFile = run.stdout.trim()
    expect(forkFile).not.toBe(s.file)
    const fork = openTree(forkFile)
    expect(fork.header.forkedFrom).toMatchObject({ file: s.file })
    expect(fork.tree.checkpoints().map((c) => c.prompt)).toEqual([
      '给 config.py 加一个 TIMEOUT = 30',
      '顺便把 DEBUG 删掉，再建一个 utils.py'
    ])
    expect(fork.tree.leafUuid).toBe(fork.header.forkedFrom?.leafUuid)
    expect(s.files()).toEqual(before.files)
    expect(readFileSync(s.file)).toEqual(before.log)
    // The fork is a session of the workspace: chat --resume continues it there.
    const resumed = await runCli(
      [
        'chat',
        '--cwd',
        s.workspace,
        '--model',
        `scripted:${script}`,
        '--resume',
        fork.header.sessionId
      ],
      { input: '/rewind\n/exit\n', env: { REWIND_STUDIO_HOME: s.home } }
    )
    expect(resumed.stdout).toContain('2. 顺便把 DEBUG 删掉，再建一个 utils.py  (changed 2 files)')
  })

  it('--restore brings the node’s files back, recorded in the fork, and rewind --undo puts them back', async () => {
    const before = s.files()
    expect(before).toEqual({
      'config.py': 'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n',
      'utils.py': UTILS
    })
    const dry = await s.cli('fork', s.file, '--at', '3', '--restore', '--dry-run')
    expect(dry.stdout).toContain('⎿ restore config.py')
    expect(dry.stdout).toContain('Dry run: nothing was changed.')
    expect(s.files()).toEqual(before)

    const run = await s.cli('fork', s.file, '--at', '3', '--restore')
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('⎿ restored config.py')
    expect(s.files()).toEqual({
      'config.py': 'TIMEOUT = 30\nHOST = "localhost"\n',
      'utils.py': UTILS
    })
    const forkFile = run.stdout.trim()
    expect(prompts(s.file)).toEqual([
      '给 config.py 加一个 TIMEOUT = 30',
      '只建 utils.py，DEBUG 先留着'
    ])

    const undo = await s.cli('rewind', forkFile, '--undo')
    expect(undo.code).toBe(0)
    expect(s.files()).toEqual(before)
  })

  it('refuses an unknown node and bad options, writing no session', async () => {
    const count = () => readdirSync(join(s.file, '..')).filter((f) => f.endsWith('.jsonl')).length
    const sessions = count()
    const unknown = await s.cli('fork', s.file, '--at', 'zzzzzzzz')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('No node "zzzzzzzz"')
    expect((await s.cli('fork', s.file, '--dry-run')).code).toBe(2)
    expect((await s.cli('fork', join(s.workspace, 'none.jsonl'))).code).toBe(1)
    expect(count()).toBe(sessions)
  })
})

describe('cli export', () => {
  let s: Seed
  beforeAll(async () => {
    s = await seed()
    expect((await s.cli('label', s.file, '3', 'dead end')).code).toBe(0)
  }, 60_000)

  it('prints the active branch as Markdown, and --branch N another branch', async () => {
    const md = await s.cli('export', s.file, '--format', 'md')
    expect(md.code).toBe(0)
    expect(md.stdout).toContain('## 1. 给 config.py 加一个 TIMEOUT = 30')
    expect(md.stdout).toContain('## 2. 只建 utils.py，DEBUG 先留着')
    expect(md.stdout).toContain('- ⏺ `Edit(config.py)`')
    expect(md.stdout).not.toContain('顺便把 DEBUG 删掉')
    const other = await s.cli('export', s.file, '--branch', '3')
    // Numbered as the app's cards number it: the second prompt of its branch (`--branch` takes
    // the CLI's number for it, 3).
    expect(other.stdout).toContain('## 2. 顺便把 DEBUG 删掉，再建一个 utils.py — label: dead end')
    expect(other.stdout).not.toContain('只建 utils.py')
  })

  it('writes the whole tree as JSON and HTML to new files, and will not overwrite one', async () => {
    const json = join(s.workspace, '..', 'tree.json')
    expect((await s.cli('export', s.file, '--format', 'json', '-o', json)).code).toBe(0)
    const model = ExportModel.parse(JSON.parse(readFileSync(json, 'utf8')))
    expect(model.scope).toBe('all')
    expect(model.nodes.map((n) => [n.number, n.promptNumber, n.label])).toEqual([
      [1, 1, null],
      [2, 2, null],
      [3, 2, 'dead end']
    ])
    expect(model.nodes[2]?.entries.map((e) => e.role)).toContain('assistant')

    const html = join(s.workspace, '..', 'tree.html')
    expect((await s.cli('export', s.file, '--format', 'html', '-o', html)).code).toBe(0)
    const page = readFileSync(html, 'utf8')
    expect(page).toContain('dead end')
    // The outline and the headings count turns per branch, as the app does: both prompts after
    // the first are its second.
    expect(page).toContain('<span class="num">2</span> 顺便把 DEBUG 删掉')
    expect(page).toContain('<span class="num">2</span> 只建 utils.py')
    expect(page).not.toContain('<span class="num">3</span>')
    expect(page).toContain('default-src &#39;none&#39;')
    writeFileSync(json, 'mine')
    const again = await s.cli('export', s.file, '--format', 'json', '-o', json)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('exists: give another name, or --force to replace it')
    expect(readFileSync(json, 'utf8')).toBe('mine')
    expect((await s.cli('export', s.file, '--format', 'json', '-o', json, '--force')).code).toBe(0)
    expect(readFileSync(json, 'utf8')).toContain('rewind-studio-export')
  })

  it('--force replaces a regular file only: never a FIFO, a link or a folder', async () => {
    const dir = join(s.workspace, '..', 'nodes')
    mkdirSync(join(dir, 'folder'), { recursive: true })
    const fifo = join(dir, 'fifo')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    writeFileSync(join(dir, 'target.md'), 'theirs')
    symlinkSync(join(dir, 'target.md'), join(dir, 'link.md'))
    symlinkSync('/proc/self/fd/1', join(dir, 'stdout'))
    for (const [name, what] of [
      ['fifo', 'a device, FIFO or socket'],
      ['link.md', 'a symbolic link'],
      ['stdout', 'a symbolic link'],
      ['folder', 'a folder']
    ] as const) {
      const run = await s.cli('export', s.file, '-o', join(dir, name), '--force')
      expect(run.code, name).toBe(1)
      expect(run.stderr).toContain(`is ${what}: --force replaces a regular file only`)
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true)
    expect(lstatSync(join(dir, 'link.md')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(dir, 'target.md'), 'utf8')).toBe('theirs')
    expect(readlinkSync(join(dir, 'stdout'))).toBe('/proc/self/fd/1')
    expect(readdirSync(dir).sort()).toEqual(['fifo', 'folder', 'link.md', 'stdout', 'target.md'])
  })

  it('writes no export into a .git folder, nor through a link to one', async () => {
    const gitDir = join(s.workspace, '..', 'repo', '.git')
    mkdirSync(gitDir, { recursive: true })
    const link = join(s.workspace, '..', 'to-git')
    symlinkSync(gitDir, link)
    for (const out of [join(gitDir, 'hooks-x.html'), join(link, 'config.md'), `${gitDir}.`]) {
      const run = await s.cli('export', s.file, '-o', out)
      expect(run.code, out).toBe(1)
      expect(run.stderr).toContain('is inside a .git folder: give a name outside it')
    }
    expect(readdirSync(gitDir)).toEqual([])
  })
})

describe('cli export of another tool’s session', () => {
  it.skipIf(!haveCorpus)(
    'renders a Claude Code transcript from the corpus, reading it only',
    async () => {
      const file = corpusFile(
        'claude-code',
        'entireio-cli_9b-3838281539_v2.1.33_file-history.jsonl'
      )
      const before = readFileSync(file)
      const md = await runCli(['export', file, '--format', 'md'])
      expect(md.stderr).toBe('')
      expect(md.code).toBe(0)
      expect(md.stdout).toContain('# Session 6da7d497-00e2-460d-a6b4-d280e0314cfd')
      expect(md.stdout).toContain('## 2. write a file about geese in docs')
      expect(md.stdout).toContain('changed `docs/geese.md`')
      expect(readFileSync(file).equals(before)).toBe(true)
    }
  )
})
