// The one place a host swaps its studio for another workspace (core/studio/workspace-host.ts),
// through the contract's dispatch as both hosts call it: real studios on real temp folders, the
// scripted model, the settings file under the data home.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dispatch } from './dispatch'
import { launchScriptedStudio } from '../../../test/support/scripted-studio'
import type { Studio } from './studio'
import {
  MAX_RECENT_WORKSPACES,
  readRecentWorkspaces,
  startupWorkspace,
  withRecent,
  WorkspaceHost
} from './workspace-host'
import type { EventChannel } from '../../shared/contract'
import type { AppInfo, RecentWorkspace } from '../../shared/views'

const opened: Studio[] = []
afterEach(async () => {
  for (const studio of opened.splice(0)) await studio.close().catch(() => undefined)
})

function folders() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'rs-workspaces-')))
  const home = join(base, 'data')
  const a = join(base, 'project-a')
  const b = join(base, 'project-b')
  mkdirSync(a)
  mkdirSync(b)
  return { base, home, a, b }
}

async function hostOn(home: string, cwd: string) {
  const events: { event: EventChannel; payload: unknown }[] = []
  const launch = async (at: string) => {
    const studio = await launchScriptedStudio({
      home,
      cwd: at,
      emit: (event, payload) => events.push({ event, payload })
    })
    opened.push(studio)
    return studio
  }
  const host = new WorkspaceHost(await launch(cwd), {
    home,
    launch,
    switched: (workspace) => events.push({ event: 'workspace:changed', payload: { workspace } })
  })
  const handlers = host.handlers()
  const call = (channel: string, args: unknown = {}) => dispatch(handlers, channel, args, () => {})
  return { host, events, call }
}

describe('switching the workspace with no restart', () => {
  it('re-opens the studio on the new folder, closes the old one, and remembers both', async () => {
    const { home, a, b } = folders()
    const { host, events, call } = await hostOn(home, a)
    const first = host.studio
    const reply = await call('workspace:open', { cwd: b })
    expect(reply.ok).toBe(true)
    expect((reply as { value: AppInfo }).value.workspace).toBe(b)
    // Every request now reaches the new studio.
    const info = await call('app:info')
    expect((info as { value: AppInfo }).value.workspace).toBe(b)
    expect(host.studio).not.toBe(first)
    expect(events.filter((e) => e.event === 'workspace:changed')).toEqual([
      { event: 'workspace:changed', payload: { workspace: b } }
    ])
    expect(readRecentWorkspaces(home)).toEqual([b, a])
    const recent = await call('workspace:recent')
    // Opening a folder leaves no session behind: a new one gets its file at its first prompt.
    expect((recent as { value: RecentWorkspace[] }).value).toEqual([
      { cwd: b, sessions: 0, current: true, problem: null },
      { cwd: a, sessions: 0, current: false, problem: null }
    ])
    expect(
      readdirSync(join(home, 'sessions'), { recursive: true }).filter((f) =>
        String(f).endsWith('.jsonl')
      )
    ).toEqual([])
    // The settings file holding the list is private, like everything under the data home.
    expect(statSync(join(home, 'settings.json')).mode & 0o077).toBe(0)
  })

  it('refuses /, the home folder, a .git, the data folder and the kernel folders, a missing folder and a file, changing nothing', async () => {
    const { home, a, base } = folders()
    mkdirSync(join(a, '.git'))
    const { host, call } = await hostOn(home, a)
    const first = host.studio
    const expected: [string, string][] = [
      ['/', 'refused'],
      [homedir(), 'refused'],
      [join(a, '.git'), 'refused'],
      [join(home, 'sessions'), 'refused'],
      ['/proc', 'refused'],
      ['/sys', 'refused'],
      ['/dev', 'refused'],
      [join(base, 'missing'), 'not_found'],
      [join(a, 'a-file'), 'not_found'],
      ['relative/path', 'invalid_payload']
    ]
    writeFileSync(join(a, 'a-file'), 'not a folder\n')
    for (const [cwd, code] of expected) {
      const reply = await call('workspace:open', { cwd })
      expect(reply.ok, cwd).toBe(false)
      expect((reply as { error: { code: string } }).error.code, cwd).toBe(code)
    }
    expect(host.studio).toBe(first)
    expect(readRecentWorkspaces(home)).toEqual([a])
  })

  it('opens the same folder once when asked twice at once', async () => {
    const { home, a, b } = folders()
    const { host, events, call } = await hostOn(home, a)
    const [one, two] = await Promise.all([
      call('workspace:open', { cwd: b }),
      call('workspace:open', { cwd: b })
    ])
    expect(one.ok && two.ok).toBe(true)
    expect(events.filter((e) => e.event === 'workspace:changed')).toHaveLength(1)
    expect(host.studio.info().workspace).toBe(b)
  })

  it('has no folder dialog in the web host: workspace:pick is unavailable', async () => {
    const { home, a } = folders()
    const { call } = await hostOn(home, a)
    const reply = await call('workspace:pick')
    expect(reply.ok).toBe(false)
    expect((reply as { error: { code: string } }).error.code).toBe('unavailable')
  })
})

describe('the recent list and the desktop’s first folder', () => {
  it('keeps the newest first, without repeats, at most MAX_RECENT_WORKSPACES', () => {
    let list: string[] = []
    for (let i = 0; i < MAX_RECENT_WORKSPACES + 3; i++) list = withRecent(list, `/p/${i}`)
    list = withRecent(list, '/p/5')
    expect(list[0]).toBe('/p/5')
    expect(list).toHaveLength(MAX_RECENT_WORKSPACES)
    expect(new Set(list).size).toBe(list.length)
  })

  it('started from / or home without --cwd, opens the newest recent folder that opens, else none', async () => {
    const { home, a, b } = folders()
    expect(startupWorkspace(homedir(), false, home)).toBeNull()
    expect(startupWorkspace('/', false, home)).toBeNull()
    const { call } = await hostOn(home, a)
    await call('workspace:open', { cwd: b })
    expect(startupWorkspace(homedir(), false, home)).toBe(b)
    // A folder that is fine is opened as it is; one named with --cwd is opened (or refused) as named.
    expect(startupWorkspace(a, false, home)).toBe(a)
    expect(startupWorkspace('/', true, home)).toBe('/')
  })
})
