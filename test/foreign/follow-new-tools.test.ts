// A Codex CLI, Gemini CLI or OpenCode session another program is still writing, viewed in the
// studio (studio/viewed-session.ts): what a child process appends to a rollout or a chat lands in
// the tree as it is written (FileTail), and an OpenCode session is read again when its store
// changes (StoreTail). The sessions are the real tools' (test/fixtures/<tool>), cut where a prompt
// starts and written on by a child, as the tool itself would.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { codex } from '../../src/core/session/foreign/codex'
import { geminiCli } from '../../src/core/session/foreign/gemini-cli'
import { openCode } from '../../src/core/session/foreign/opencode'
import type { ForeignReader } from '../../src/core/session/foreign/types'
import { ViewedSession } from '../../src/core/studio/viewed-session'
import { codexHome, geminiHome, openCodeJsonHome } from './tool-homes'

const viewed: ViewedSession[] = []
afterEach(() => {
  for (const v of viewed.splice(0)) v.close()
})

/** Runs `script` in another process (node -e), with `args`. */
function fromChild(script: string, ...args: string[]): void {
  const child = spawnSync(process.execPath, ['-e', script, ...args], { encoding: 'utf8' })
  expect(child.stderr).toBe('')
  expect(child.status).toBe(0)
}

function follow(file: string, reader: ForeignReader, home: string): ViewedSession {
  const session = new ViewedSession(file, reader, { home, claudeHome: join(home, 'no-claude') })
  viewed.push(session)
  session.follow(() => undefined)
  return session
}

const prompts = (session: ViewedSession) => session.tree.checkpoints().map((c) => c.prompt)

/** Cuts `file` before the first line holding `marker`; returns the lines cut off. */
function cutBefore(file: string, marker: string): string {
  const lines = readFileSync(file, 'utf8').split('\n')
  const at = lines.findIndex((l) => l.includes(marker))
  expect(at).toBeGreaterThan(0)
  writeFileSync(file, `${lines.slice(0, at).join('\n')}\n`)
  return lines.slice(at).join('\n')
}

const APPEND = 'require("fs").appendFileSync(process.argv[1], process.argv[2])'

describe('another tool writing the session shown', () => {
  it('Codex CLI: the lines it appends to the rollout', async () => {
    const c = codexHome()
    const day = join(c.toolHome, 'sessions', '2026', '12', '01')
    const file = join(day, readdirSync(day).find((f) => f.includes('f7bd')) ?? '')
    const rest = cutBefore(file, '"text":"patch the notes"')
    const session = follow(file, codex, c.home)
    expect(prompts(session)).toEqual(['create the notes'])
    fromChild(APPEND, file, rest)
    await expect
      .poll(() => prompts(session), { timeout: 10_000 })
      .toEqual(['create the notes', 'patch the notes'])
  })

  it('Gemini CLI: the messages and updates it appends to the chat', async () => {
    const g = geminiHome('gemini-home-before-restore', 'workspace-before-restore')
    const file = g.chats[0] ?? ''
    const rest = cutBefore(file, '"text":"run a shell"')
    const session = follow(file, geminiCli, g.home)
    expect(prompts(session)).toEqual(['write the plan', 'edit the plan', 'write the notes'])
    fromChild(APPEND, file, rest)
    await expect.poll(() => prompts(session).at(-1), { timeout: 10_000 }).toBe('run a shell')
  })

  it('OpenCode: the messages it adds to its store', async () => {
    const base = codexHome().base
    const oc = openCodeJsonHome(join(base, 'ws'), join(base, 'opencode'))
    oc.messages.slice(0, oc.secondTurn).forEach(oc.write)
    const session = follow(oc.sessionFile, openCode, join(base, 'rs'))
    expect(prompts(session)).toEqual(['"write the config"'])
    oc.messages.slice(oc.secondTurn).forEach(oc.write)
    await expect
      .poll(() => prompts(session), { timeout: 10_000 })
      .toEqual(['"write the config"', '"change the mode"'])
  })
})
