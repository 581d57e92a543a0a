// A real session in a real temp workspace, driven the way the agent drives it: prompts open
// checkpoints, Write goes through the WriteGuard hooks, Bash runs a real `sh -c` between
// beforeCommand and afterCommand, and the rewind engine works on the real store and blob store.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach } from 'vitest'
import { FileHistory } from '../../src/core/files/file-history'
import type { CommandChanges } from '../../src/core/files/write-guard'
import { RewindEngine } from '../../src/core/rewind/rewind-engine'
import { pruneWhenDue } from '../../src/core/rewind/background-retention'
import { SessionStore } from '../../src/core/session/store'

export type Files = Record<string, string>

export interface WorkspaceSession {
  base: string
  cwd: string
  home: string
  store: SessionStore
  history: FileHistory
  /** What opening said: the file history's notices, then retention's (as the studio's open). */
  notices: string[]
  engine: RewindEngine
  prompt(text: string): string
  reply(text: string): string
  write(rel: string, text: string): Promise<void>
  bash(command: string): Promise<CommandChanges>
  /** A change made by hand (null deletes the file): no hook sees it. */
  hand(rel: string, text: string | null): void
  read(rel: string): string | null
  close(): Promise<void>
}

export function makeWorkspace(files: Files = {}): { base: string; cwd: string; home: string } {
  const base = mkdtempSync(join(tmpdir(), 'rs-rewind-'))
  const cwd = join(base, 'ws')
  const home = join(base, 'home')
  mkdirSync(cwd)
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true })
    writeFileSync(join(cwd, rel), text)
  }
  return { base, cwd, home }
}

export async function openSession(
  where: { base: string; cwd: string; home: string },
  store = SessionStore.create({ home: where.home, cwd: where.cwd })
): Promise<WorkspaceSession> {
  const { base, cwd, home } = where
  const history = await FileHistory.open({ home, cwd, sessionId: store.sessionId, log: store })
  // Pruned inline whatever the logs' size, as a session over a few logs opens.
  const pruning = await pruneWhenDue(home, history.paths.root, Number.POSITIVE_INFINITY)
  const notices = [...history.notices, ...pruning.done]
  const engine = new RewindEngine({ home, store, space: history })
  const abs = (rel: string) => join(cwd, rel)
  return {
    base,
    cwd,
    home,
    store,
    history,
    notices,
    engine,
    prompt(text) {
      const uuid = store.appendMessage({ role: 'user', content: text }).uuid
      history.beginCheckpoint(uuid)
      return uuid
    },
    reply(text) {
      return store.appendMessage({ role: 'assistant', content: [{ type: 'text', text }] }).uuid
    },
    async write(rel, text) {
      await history.beforeWrite(abs(rel), 'Write', text)
      mkdirSync(dirname(abs(rel)), { recursive: true })
      writeFileSync(abs(rel), text)
      await history.afterWrite(abs(rel), 'Write')
    },
    async bash(command) {
      await history.beforeCommand('Bash')
      let failed: { error: unknown } | null = null
      try {
        execFileSync('sh', ['-c', command], { cwd, stdio: 'pipe' })
      } catch (error) {
        failed = { error }
      }
      const changes = await history.afterCommand('Bash')
      if (failed !== null) throw failed.error
      return changes
    },
    hand(rel, text) {
      if (text === null) rmSync(abs(rel), { force: true })
      else {
        mkdirSync(dirname(abs(rel)), { recursive: true })
        writeFileSync(abs(rel), text)
      }
    },
    read(rel) {
      return existsSync(abs(rel)) ? readFileSync(abs(rel), 'utf8') : null
    },
    async close() {
      await history.close()
      store.close()
    }
  }
}

export async function newSession(files: Files = {}): Promise<WorkspaceSession> {
  return openSession(makeWorkspace(files))
}

/** Sessions for one test file: each one it opens (or is given to track) is closed after its test. */
export function sessionsClosedAfterEach(): {
  session: (files?: Files) => Promise<WorkspaceSession>
  track: (s: WorkspaceSession) => WorkspaceSession
} {
  const open: WorkspaceSession[] = []
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close()
  })
  const track = (s: WorkspaceSession) => {
    open.push(s)
    return s
  }
  return { session: async (files = {}) => track(await newSession(files)), track }
}

/** turn 1 writes a.txt = 1; turn 2 writes a.txt = 2 and creates b.txt = 2, and is the leaf. */
export async function twoTurns(s: WorkspaceSession) {
  const prompt1 = s.prompt('one')
  await s.write('a.txt', '1')
  const end1 = s.reply('one done')
  const prompt2 = s.prompt('two')
  await s.write('a.txt', '2')
  await s.write('b.txt', '2')
  const end2 = s.reply('two done')
  return { prompt1, end1, prompt2, end2 }
}

/** The seed's two turns (config.py gains TIMEOUT; then loses DEBUG, and utils.py is created). */
export async function seedTurns(s: WorkspaceSession) {
  const first = s.prompt('add TIMEOUT = 30 to config.py')
  await s.write('config.py', 'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
  s.reply('added')
  const second = s.prompt('drop DEBUG and create utils.py')
  await s.write('config.py', 'TIMEOUT = 30\nHOST = "localhost"\n')
  await s.write('utils.py', 'def helper():\n    pass\n')
  s.reply('done')
  return { first, second }
}

/** The seed's workspace: config.py with DEBUG and HOST. */
export const seedFiles: Files = { 'config.py': 'DEBUG = True\nHOST = "localhost"\n' }
