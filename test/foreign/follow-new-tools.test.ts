// A Codex CLI, Gemini CLI or OpenCode session another program is still writing, viewed in the
// studio (studio/viewed-session.ts): what a child process appends to a rollout or a chat lands in
// the tree as it is written (FileTail), and an OpenCode session is read again when its store
// changes (StoreTail). The sessions are the real tools' (test/fixtures/<tool>), cut where a prompt
// starts and written on by a child, as the tool itself would.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { codex } from '../../src/core/session/foreign/codex'
import { geminiCli } from '../../src/core/session/foreign/gemini-cli'
import { openCode } from '../../src/core/session/foreign/opencode'
import type { ForeignReader } from '../../src/core/session/foreign/types'
import { ViewedSession } from '../../src/core/studio/viewed-session'
import { TOOL_FIXTURES, codexHome, geminiHome } from './tool-homes'

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
    // OpenCode's JSON storage (what its versions before the database wrote, the same objects
    // as its export), laid out from the real export of a session: its session file, then each
    // message with its parts, written as OpenCode writes them.
    const exported = JSON.parse(
      readFileSync(
        join(TOOL_FIXTURES, 'opencode', 'export-ses_dcbdb4ef9ffewnZlETLnMy6hQS.json'),
        'utf8'
      )
    ) as {
      info: { id: string; projectID: string }
      messages: { info: { id: string }; parts: { id: string }[] }[]
    }
    const storage = join(codexHome().base, 'opencode', 'storage')
    const sessionFile = join(
      storage,
      'session',
      exported.info.projectID,
      `${exported.info.id}.json`
    )
    mkdirSync(join(storage, 'session', exported.info.projectID), { recursive: true })
    writeFileSync(sessionFile, JSON.stringify(exported.info))
    const write = (m: (typeof exported.messages)[number]) => {
      const files: [string, string][] = [
        [join(storage, 'message', exported.info.id, `${m.info.id}.json`), JSON.stringify(m.info)],
        ...m.parts.map((p): [string, string] => [
          join(storage, 'part', m.info.id, `${p.id}.json`),
          JSON.stringify(p)
        ])
      ]
      // Parts first, then the message that lists them, each file whole.
      fromChild(
        'const fs=require("fs"),p=require("path");for(const [f,t] of JSON.parse(process.argv[1]).reverse()){fs.mkdirSync(p.dirname(f),{recursive:true});fs.writeFileSync(f,t)}',
        JSON.stringify(files)
      )
    }
    const firstTurn = exported.messages.findIndex(
      (m, i) => i > 0 && (m.info as { role?: string }).role === 'user'
    )
    exported.messages.slice(0, firstTurn).forEach(write)
    const session = follow(sessionFile, openCode, join(storage, '..', 'rs'))
    expect(prompts(session)).toEqual(['"write the config"'])
    exported.messages.slice(firstTurn).forEach(write)
    await expect
      .poll(() => prompts(session), { timeout: 10_000 })
      .toEqual(['"write the config"', '"change the mode"'])
  })
})
