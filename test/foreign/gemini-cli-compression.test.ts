// Gemini CLI 0.61.0's chat compression, made by the real CLI (test/fixtures/gemini-compress/
// README.md): four questions, `/compress`, one more prompt. The CLI records it as a $set of the
// messages (the session context, its summary, its model's fixed reply, the tail it kept written
// again): read as a compaction node under the conversation it summarised, listed by inspect in
// its summaries, and what `continue` writes is what the CLI itself sent its model after it
// (sent.jsonl: the contents of each streamed request the CLI made).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contextPath } from '../../src/core/session/continue-foreign'
import { geminiCli } from '../../src/core/session/foreign/gemini-cli'
import { readSessionFile } from '../../src/core/session/load'
import { contentText, isCompactionRecord, type TreeRecord } from '../../src/core/session/tree'
import { ViewedSession } from '../../src/core/studio/viewed-session'
import { buildSessionGraph } from '../../src/core/views/session-graph'
import { appendFromChild } from '../support/append-from-child'
import { runCli } from '../support/cli'
import { TOOL_FIXTURES, geminiHome } from './tool-homes'

const home = () => geminiHome('gemini-home', 'workspace-after', 'gemini-compress')

/** Messages as role: text (200 characters), consecutive ones of a role joined as the API does. */
function joined(messages: { role: string; text: string }[]): string[] {
  const out: { role: string; text: string }[] = []
  for (const m of messages) {
    const last = out.at(-1)
    if (last?.role === m.role) last.text += m.text
    else out.push({ ...m })
  }
  return out.map((m) => `${m.role}: ${m.text.slice(0, 200)}`)
}

/** The contents of each streamed request the CLI made, its paths as the copy's. */
function sentRequests(ran: string): string[][] {
  const recordedAt = readFileSync(
    join(TOOL_FIXTURES, 'gemini-compress', 'workspace-path.txt'),
    'utf8'
  ).trim()
  return readFileSync(join(TOOL_FIXTURES, 'gemini-compress', 'sent.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) =>
      joined(
        (JSON.parse(line) as { role: string; text: string }[]).map((m) => ({
          role: m.role,
          text: m.text.split(recordedAt).join(ran)
        }))
      )
    )
}

/** Records as the CLI sends them: user and model messages (tool calls left out). */
function asSent(records: readonly TreeRecord[]): string[] {
  return joined(
    records.flatMap((r) => {
      if (r.type === 'user' || r.type === 'assistant') {
        const text = contentText(r.message.content)
        return text === '' ? [] : [{ role: r.type === 'user' ? 'user' : 'model', text }]
      }
      if (r.type !== 'custom_message') return []
      const reply = (r.details as { reply?: string } | undefined)?.reply
      return [
        { role: 'user', text: contentText(r.content) },
        ...(reply === undefined ? [] : [{ role: 'model', text: reply }])
      ]
    })
  )
}

describe('Gemini CLI chat compression', () => {
  it('draws /compress as a compaction node under what it summarised, the prompts unchanged', () => {
    const gemini = home()
    const loaded = readSessionFile(gemini.chats[0] ?? '')
    expect(loaded.problems).toEqual([])
    const { tree } = loaded
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual([
      'question about A',
      'question about B',
      'question about C',
      'question about D',
      'after the compression'
    ])
    const path = tree.activePath()
    const compaction = path.find(isCompactionRecord) as TreeRecord
    expect(compaction).toBeDefined()
    const at = path.indexOf(compaction)
    // Under the conversation it summarised: every question is on the path before it.
    expect(tree.checkpoints(path.slice(0, at)).map((c) => c.prompt)).toHaveLength(4)
    expect(tree.leaves()).toHaveLength(1)
    const summaries = tree.summaries()
    expect(summaries.map((s) => s.kind)).toEqual(['compaction'])
    expect(summaries[0]?.summary).toContain('<state_snapshot>')
    const node = buildSessionGraph(tree, 'gemini').nodes.find((n) => n.id === compaction.uuid)
    expect(node?.kind).toBe('compaction')
    // Titled by the snapshot's first element (its overall goal), its tags left out.
    expect(node?.title).toBe('Answer three questions about the alphabet.')
  })

  it('continues with what the CLI sent after it: the session context, the summary, its reply, the tail it kept', async () => {
    const gemini = home()
    const file = gemini.chats[0] ?? ''
    const { tree } = readSessionFile(file)
    const prompt = tree.checkpoints().find((c) => c.prompt === 'after the compression')
    const sent = sentRequests(gemini.ran).findLast((r) =>
      r.at(-1)?.endsWith('after the compression')
    )
    expect(sent?.map((m) => m.slice(0, 30))).toEqual([
      'user: <session_context>\nThis i',
      'model: Got it. Thanks for the ',
      'user: question about D',
      'model: D is the fourth letter ',
      'user: after the compression'
    ])
    expect(asSent(contextPath(tree, prompt?.uuid ?? null))).toEqual(sent)

    const json = await runCli(['inspect', file, '--json'], { env: gemini.env })
    expect(json.code).toBe(0)
    const listed = (JSON.parse(json.stdout) as { summaries: { kind: string }[] }).summaries
    expect(listed.map((s) => s.kind)).toEqual(['compaction'])
    const continued = await runCli(['continue', file, '--cwd', gemini.workspace, '--json'], {
      env: gemini.env
    })
    expect(continued.code).toBe(0)
    const ours = readSessionFile((JSON.parse(continued.stdout) as { file: string }).file).tree
    expect(asSent(ours.activePath())).toEqual([
      ...(sent ?? []),
      'model: Going on from the snapshot.'
    ])
  })

  it('follows a compression the CLI records while the chat is shown', async () => {
    const gemini = home()
    const file = gemini.chats[0] ?? ''
    const lines = readFileSync(file, 'utf8').split('\n')
    const at = lines.findIndex((l) => l.includes('Got it. Thanks for the additional context!'))
    writeFileSync(file, `${lines.slice(0, at).join('\n')}\n`)
    const session = new ViewedSession(file, geminiCli, {
      home: gemini.home,
      claudeHome: join(gemini.home, 'no-claude')
    })
    try {
      session.follow(() => undefined)
      expect(session.tree.summaries()).toEqual([])
      appendFromChild(file, lines.slice(at).join('\n'))
      await expect
        .poll(() => session.tree.summaries().map((s) => s.kind), { timeout: 10_000 })
        .toEqual(['compaction'])
      await expect
        .poll(() => session.tree.checkpoints().map((c) => c.prompt), { timeout: 10_000 })
        .toContain('after the compression')
      expect(session.tree.leaves()).toHaveLength(1)
    } finally {
      session.close()
    }
  })
})
