// Gemini CLI's chats of the one-document layout it wrote before April 2026
// (`chats/session-<start>-<id>.json`: the whole conversation record, rewritten after each message).
// Made here from the real 0.61 chat of test/fixtures/gemini-cli as the older CLI kept the same
// conversation: the header's fields and the messages, each at its last state, in one
// pretty-printed document. Read, listed, restored from and refused as the JSONL chat is.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Json } from '../../src/core/session/json'
import { readSessionFile } from '../../src/core/session/load'
import { Sources } from '../../src/core/sources/discovery'
import { sourceHomes } from '../../src/core/sources/homes'
import { runCli } from '../support/cli'
import { geminiHome } from './tool-homes'

/** The conversation record a JSONL chat's lines build, as the older CLI wrote it whole. */
function asOneDocument(jsonl: string): Json {
  const [header = {}, ...lines] = readFileSync(jsonl, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Json)
  let messages: Json[] = []
  for (const line of lines) {
    const set = line.$set as Json | undefined
    if (Array.isArray(set?.messages)) messages = set.messages as Json[]
    else if (set !== undefined) Object.assign(header, set)
    else if (typeof line.id === 'string') {
      const at = messages.findIndex((m) => m.id === line.id && m.type === line.type)
      if (at === -1) messages.push(line)
      else messages[at] = line
    }
  }
  return { ...header, messages }
}

const prompts = (file: string) =>
  readSessionFile(file)
    .tree.checkpoints()
    .map((c) => c.prompt)

describe("Gemini CLI's one-document chats (before April 2026)", () => {
  it('reads, lists and restores from one as from the JSONL chat of the same conversation', async () => {
    const g = geminiHome('gemini-home-before-restore', 'workspace-before-restore')
    const [jsonl = ''] = g.chats
    const chats = dirname(jsonl)
    const asJsonl = prompts(jsonl)
    const dryRun = (chat: string) =>
      runCli(['rewind', chat, '--to', '1', '--dry-run', '--json'], { env: g.env })
    const jsonlPlan = await dryRun(jsonl)
    expect(jsonlPlan.code).toBe(0)

    const document = join(chats, 'session-2026-01-01T10-00-a6b519b3.json')
    writeFileSync(document, JSON.stringify(asOneDocument(jsonl), null, 2))
    // The JSONL chat moved away: the document is all the project has, as for an earlier user.
    renameSync(jsonl, join(g.base, 'moved.jsonl'))

    const loaded = readSessionFile(document)
    expect(loaded.format).toBe('gemini-cli')
    expect(loaded.problems).toEqual([])
    expect(prompts(document)).toEqual(asJsonl)
    expect(asJsonl.length).toBeGreaterThan(1)

    const sources = new Sources({ home: g.home, homes: sourceHomes(g.home, g.env), persist: false })
    const listed = sources.workspaceSessions(g.workspace).filter((s) => s.source === 'gemini-cli')
    expect(listed.map((s) => [s.file, s.summary.prompts])).toEqual([[document, asJsonl.length]])
    expect(sources.sourceOf(document)).toBe('gemini-cli')
    expect(sources.projects().find((p) => p.cwd === g.workspace)?.sessions).toBe(1)
    const elsewhere = join(g.base, 'chats', 'session-copy.json')
    mkdirSync(dirname(elsewhere))
    writeFileSync(elsewhere, readFileSync(document))
    expect(sources.sourceOf(elsewhere)).toBeNull()

    const cli = await runCli(['sessions', '--cwd', g.workspace], { env: g.env })
    expect(cli.stdout).toContain(document)
    // Its checkpoints are found beside it, as the JSONL chat's were: the same restore planned.
    expect(await dryRun(document)).toEqual(jsonlPlan)
  })

  it('refuses a file so named that is no such chat, saying what it is not, and lists none', async () => {
    const g = geminiHome('gemini-home-before-restore', 'workspace-before-restore')
    const chats = dirname(g.chats[0] ?? '')
    const cases = {
      'session-2026-01-01T10-00-notjson.json': '{"sessionId": "x", ',
      'session-2026-01-01T10-00-nomessages.json': JSON.stringify({
        sessionId: 'x',
        projectHash: 'y'
      }),
      'session-2026-01-01T10-00-noheader.json': JSON.stringify({ messages: [] })
    }
    for (const [name, text] of Object.entries(cases)) writeFileSync(join(chats, name), text)
    const sources = new Sources({ home: g.home, homes: sourceHomes(g.home, g.env), persist: false })
    const files = sources.workspaceSessions(g.workspace).map((s) => s.file)
    expect(files).toEqual(g.chats)
    for (const [name, why] of [
      ['session-2026-01-01T10-00-notjson.json', 'it is not JSON'],
      ['session-2026-01-01T10-00-nomessages.json', 'it holds no messages list'],
      ['session-2026-01-01T10-00-noheader.json', 'it names no sessionId and projectHash']
    ] as const) {
      const run = await runCli(['inspect', join(chats, name)], { env: g.env })
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(
        `is no Gemini CLI chat of the .json layout it used before April 2026: ${why}`
      )
    }
  })
})
