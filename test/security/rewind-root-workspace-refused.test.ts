// Finding 4 of the hardening review: "refuse `/`, the home folder, `""` and `.` as a workspace"
// (for `rewind FILE`, whose session header names the workspace, and for serve/chat/app too).
// Also refused here, by the same check: a workspace inside a .git folder, and one holding the
// data folder (its session logs and backups would be files the agent may change).
import { randomUUID } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { FileHistory } from '../../src/core/files/file-history'
import { WorkspaceRefusedError, checkWorkspaceFolder } from '../../src/core/files/workspace-root'
import { RewindEngine } from '../../src/core/rewind/rewind-engine'
import { restoreSpaceAt } from '../../src/core/rewind/workspace-files'
import { sessionsDir } from '../../src/core/session/paths'
import { SessionStore } from '../../src/core/session/store'
import { openSessionStore } from '../../src/core/studio/open-session-store'
import { runCli } from '../support/cli'
import { handMadeSession, placeIn } from '../support/hand-made-session'
import { launchScriptedStudio } from '../support/scripted-studio'

function scratch() {
  const base = mkdtempSync(join(tmpdir(), 'rs-root-'))
  return { base, home: join(base, 'data') }
}

/** A folder standing in for the user's home folder (HOME is set to it for the command). */
function fakeHome(base: string): string {
  const home = join(base, 'user')
  mkdirSync(home)
  writeFileSync(join(home, 'notes.txt'), 'mine\n')
  return home
}

describe('rewind FILE refuses a session whose header names an unfit workspace', () => {
  it('"/": refused before anything is read or written', async () => {
    const { home } = scratch()
    // A path that exists nowhere, and --dry-run: even without the fix this changes nothing.
    const { file } = handMadeSession('/', `rs-never-${randomUUID()}.txt`, 'x')
    const own = placeIn(sessionsDir(home, '/'), file)
    const run = await runCli(['rewind', own, '--to', '1', '--dry-run'], {
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('Refused workspace "/": it is the root of the file system')
  })

  it('the home folder: refused, its files untouched', async () => {
    const { base, home } = scratch()
    const user = fakeHome(base)
    const { file } = handMadeSession(user, 'notes.txt', 'mine\n')
    const own = placeIn(sessionsDir(home, user), file)
    const run = await runCli(['rewind', own, '--to', '1'], {
      env: { REWIND_STUDIO_HOME: home, HOME: user }
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('it is your home folder')
    expect(existsSync(join(user, 'notes.txt'))).toBe(true)
  })

  it('"" and ".": refused (a relative workspace would be wherever the command runs)', async () => {
    const { base, home } = scratch()
    const here = join(base, 'here')
    mkdirSync(here)
    writeFileSync(join(here, 'notes.txt'), 'mine\n')
    for (const cwd of ['', '.']) {
      const { file } = handMadeSession(cwd, 'notes.txt', 'mine\n')
      const own = placeIn(sessionsDir(home, cwd), file)
      const run = await runCli(['rewind', own, '--to', '1'], {
        env: { REWIND_STUDIO_HOME: home },
        cwd: here
      })
      expect(run.code, cwd).toBe(1)
      expect(run.stderr, cwd).toContain(`Refused workspace ${JSON.stringify(cwd)}`)
      expect(existsSync(join(here, 'notes.txt'))).toBe(true)
    }
  })

  it('--cwd "" is a usage error, and --cwd naming the home folder is refused', async () => {
    const { base, home } = scratch()
    const user = fakeHome(base)
    const { file } = handMadeSession(user, 'notes.txt', 'mine\n')
    const env = { REWIND_STUDIO_HOME: home, HOME: user }
    const empty = await runCli(['rewind', file, '--to', '1', '--cwd', ''], { env })
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('--cwd needs a value, not ""')
    const named = await runCli(['rewind', file, '--to', '1', '--cwd', user], { env })
    expect(named.code).toBe(1)
    expect(named.stderr).toContain('it is your home folder')
    expect(existsSync(join(user, 'notes.txt'))).toBe(true)
  })
})

describe('serve, chat and the app refuse an unfit workspace before a session exists', () => {
  it('chat in the home folder, or with --cwd "", starts no session', async () => {
    const { base, home } = scratch()
    const user = fakeHome(base)
    const env = { REWIND_STUDIO_HOME: home, HOME: user }
    const inHome = await runCli(['chat', '--cwd', user], { env, input: '/exit\n' })
    expect(inHome.code).toBe(1)
    expect(inHome.stderr).toContain('it is your home folder')
    const empty = await runCli(['chat', '--cwd', ''], { env, input: '/exit\n' })
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('--cwd needs a folder')
    expect(existsSync(join(home, 'sessions'))).toBe(false)
  })

  it('the studio (serve, the app) does not open in the home folder, nor on "/"', async () => {
    const { base, home } = scratch()
    const user = fakeHome(base)
    vi.stubEnv('HOME', user)
    try {
      await expect(
        launchScriptedStudio({
          home,
          cwd: user,
          model: undefined,
          permissionMode: undefined
        })
      ).rejects.toThrow(/it is your home folder/)
    } finally {
      vi.unstubAllEnvs()
    }
    // The one path every host takes to its session (launchStudio's openStore, chat).
    expect(() => openSessionStore(home, '/', { kind: 'new' })).toThrow(
      /Refused workspace "\/": it is the root of the file system/
    )
    expect(existsSync(join(home, 'sessions'))).toBe(false)
  })

  it('a folder inside a .git, and a folder holding the data folder, are refused too', () => {
    const { base, home } = scratch()
    const repo = join(base, 'repo')
    execFileSync('git', ['init', '-q', repo])
    expect(() => openSessionStore(home, join(repo, '.git', 'hooks'), { kind: 'new' })).toThrow(
      /inside a \.git folder/
    )
    const project = join(base, 'project')
    mkdirSync(project)
    expect(() => openSessionStore(join(project, '.rs'), project, { kind: 'new' })).toThrow(
      /holds Rewind Studio's data folder/
    )
    expect(existsSync(join(home, 'sessions'))).toBe(false)
    expect(readdirSync(project)).toEqual([])
  })

  // The lead's hostile pass (stop 37): `chat --cwd /tmp` was accepted, and its scan and the agent
  // reached every user's and program's files there.
  it('a folder every user shares (sticky, world-writable, like /tmp) is refused, a project in it is not', async () => {
    const { base, home } = scratch()
    const shared = join(base, 'shared')
    mkdirSync(shared)
    chmodSync(shared, 0o1777)
    writeFileSync(join(shared, 'someone-elses.txt'), 'theirs\n')
    expect(() => openSessionStore(home, shared, { kind: 'new' })).toThrow(
      /it is a folder every user shares/
    )
    const chat = await runCli(['chat', '--cwd', shared], {
      env: { REWIND_STUDIO_HOME: home },
      input: '/exit\n'
    })
    expect(chat.code).toBe(1)
    expect(chat.stderr).toContain('it is a folder every user shares')
    expect(existsSync(join(home, 'sessions'))).toBe(false)
    expect(readdirSync(shared)).toEqual(['someone-elses.txt'])
    const project = join(shared, 'project')
    mkdirSync(project)
    openSessionStore(home, project, { kind: 'new' }).close()
  })

  // The lead's hostile pass (stop 21): "Open folder…" accepted the data folder's own sessions
  // folder (its logs became the agent's files) and /proc, /sys and /dev.
  it('a folder inside the data folder, and the kernel folders, are refused too', () => {
    const { home } = scratch()
    const inside = join(home, 'sessions')
    mkdirSync(inside, { recursive: true })
    expect(() => openSessionStore(home, inside, { kind: 'new' })).toThrow(
      /is inside Rewind Studio's data folder/
    )
    expect(readdirSync(inside)).toEqual([])
    // The demo workspace lives in the data folder, and is one.
    const demo = join(home, 'demo-workspace')
    mkdirSync(demo)
    openSessionStore(home, demo, { kind: 'new' }).close()
    for (const folder of ['/proc', '/sys/kernel', '/dev']) {
      expect(() => openSessionStore(home, folder, { kind: 'new' })).toThrow(
        new RegExp(`is in /${folder.split('/')[1]}, the kernel's view`)
      )
    }
    // "Open folder…" asks the same check: src/core/studio/workspace-host.test.ts.
  })

  // The hostile sweep (stop 46): as root `workspace:open {cwd: '/etc'}` was accepted, and the
  // agent and a rewind could rewrite the system's configuration.
  it("the operating system's folders are refused; a project in a folder that holds many is not", async () => {
    const { home } = scratch()
    for (const folder of ['/etc', '/etc/ssh', '/usr', '/usr/lib', '/boot', '/opt', '/var/lib']) {
      expect(() => openSessionStore(home, folder, { kind: 'new' }), folder).toThrow(
        /one of the operating system's own folders/
      )
    }
    const chat = await runCli(['chat', '--cwd', '/etc'], {
      env: { REWIND_STUDIO_HOME: home },
      input: '/exit\n'
    })
    expect(chat.code).toBe(1)
    expect(chat.stderr).toContain('Refused workspace "/etc": it is /etc')
    expect(existsSync(join(home, 'sessions'))).toBe(false)
    // Where Dockerfiles, /opt installs and Jenkins put projects.
    for (const project of ['/usr/src/app', '/opt/tool', '/var/lib/jenkins/workspace/job']) {
      expect(() => checkWorkspaceFolder(project, home), project).not.toThrow()
    }
  })

  it('file history and the rewind engine refuse "/" themselves (no path into the core skips it)', async () => {
    const { home } = scratch()
    const store = SessionStore.create({ home, cwd: join(home, '..') })
    try {
      await expect(
        FileHistory.open({ home, cwd: '/', sessionId: store.sessionId, log: store })
      ).rejects.toThrow(WorkspaceRefusedError)
      expect(
        () => new RewindEngine({ home, store, space: restoreSpaceAt('/', join(home, 'history')) })
      ).toThrow(WorkspaceRefusedError)
    } finally {
      store.close()
    }
  })
})
