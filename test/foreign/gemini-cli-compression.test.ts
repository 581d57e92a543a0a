// Gemini CLI 0.61.0's chat compression, made by the real CLI (test/fixtures/gemini-compress/
// README.md): four questions, `/compress`, one more prompt. The CLI records it as a $set of the
// messages (the session context, its summary, its model's fixed reply, the tail it kept written
// again): read as a compaction node under the conversation it summarised, listed by inspect in
// its summaries, and what `continue` writes is what the CLI itself sent its model after it
// (sent.jsonl: the contents of each streamed request the CLI made). The CLI compressing by itself
// (test/fixtures/gemini-compress-auto: a history reported near the model's token limit) records
// the same, once between two prompts and once between a tool call and its result.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contextPath } from '../../src/core/session/continue-foreign'
import { geminiCli } from '../../src/core/session/foreign/gemini-cli'
import { readSessionFile } from '../../src/core/session/load'
import { contentText, isCompactionRecord, type TreeRecord } from '../../src/core/session/tree'
import type { MessageContent } from '../../src/shared/messages'
import { ViewedSession } from '../../src/core/studio/viewed-session'
import { buildSessionGraph } from '../../src/core/views/session-graph'
import { appendFromChild } from '../support/append-from-child'
import { runCli } from '../support/cli'
import { TOOL_FIXTURES, geminiHome } from './tool-homes'

const home = () => geminiHome('gemini-home', 'workspace-after', 'gemini-compress')
const autoHome = () => geminiHome('gemini-home', 'workspace-after', 'gemini-compress-auto')
type Fixture = 'gemini-compress' | 'gemini-compress-auto'

/** A message as sent.jsonl has it: its role and its parts' text. */
interface Sent {
  role: string
  text: string
}

/** Messages as role: text (200 characters), consecutive ones of a role joined as the API does. */
function joined(messages: Sent[]): string[] {
  const out: Sent[] = []
  for (const m of messages) {
    const last = out.at(-1)
    if (last?.role === m.role) last.text += m.text
    else out.push({ ...m })
  }
  return out.map((m) => `${m.role}: ${m.text.slice(0, 200)}`)
}

/** The contents of each streamed request the CLI made, its paths as the copy's. */
function sentRequests(ran: string, fixture: Fixture = 'gemini-compress'): string[][] {
  const recordedAt = readFileSync(join(TOOL_FIXTURES, fixture, 'workspace-path.txt'), 'utf8').trim()
  return readFileSync(join(TOOL_FIXTURES, fixture, 'sent.jsonl'), 'utf8')
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

/** The names of the tools the records call, by call id. */
function toolNames(records: readonly TreeRecord[]): Map<string, string> {
  const names = new Map<string, string>()
  for (const r of records) {
    if (r.type !== 'assistant' || typeof r.message.content === 'string') continue
    for (const b of r.message.content)
      if (b.type === 'tool_use') names.set(String(b.id), String(b.name))
  }
  return names
}

/**
 * One record as the CLI sends it: a user or model message, a tool call and its result as
 * sent.jsonl writes them (`[call NAME]`, `[result NAME]`), a compaction's summary and reply.
 */
function sentOf(r: TreeRecord, names: ReadonlyMap<string, string>): Sent[] {
  if (r.type === 'user' || r.type === 'assistant') {
    const content: MessageContent = r.message.content
    const tools =
      typeof content === 'string'
        ? ''
        : content
            .map((b) => {
              if (b.type === 'tool_use') return `[call ${b.name}]`
              return b.type === 'tool_result'
                ? `[result ${names.get(String(b.tool_use_id)) ?? '?'}]`
                : ''
            })
            .join('')
    const text = contentText(content) + tools
    return text === '' ? [] : [{ role: r.type === 'user' ? 'user' : 'model', text }]
  }
  if (r.type !== 'custom_message') return []
  const reply = (r.details as { reply?: string } | undefined)?.reply
  return [
    { role: 'user', text: contentText(r.content) },
    ...(reply === undefined ? [] : [{ role: 'model', text: reply }])
  ]
}

/** Records as the CLI sends them, consecutive ones of a role joined. */
function asSent(records: readonly TreeRecord[]): string[] {
  const names = toolNames(records)
  return joined(records.flatMap((r) => sentOf(r, names)))
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

describe('Gemini CLI compressing by itself', () => {
  /** Records one by one, as sent (their first 40 characters) or a compaction's title. */
  function outline(records: readonly TreeRecord[], title: (uuid: string) => string): string[] {
    const names = toolNames(records)
    return records.flatMap((r) =>
      isCompactionRecord(r)
        ? [`compaction: ${title(r.uuid)}`]
        : sentOf(r, names).map((m) => `${m.role}: ${m.text}`.slice(0, 40))
    )
  }

  it('draws each compression as a compaction node under what it summarised, the tail it kept under it', () => {
    const gemini = autoHome()
    const loaded = readSessionFile(gemini.chats[0] ?? '')
    expect(loaded.problems).toEqual([])
    const { tree } = loaded
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual([
      'question about A',
      'question about B',
      'question about C',
      'question about D',
      'read the notes',
      'after the compressions'
    ])
    expect(tree.leaves()).toHaveLength(1)
    expect(tree.summaries().map((s) => s.kind)).toEqual(['compaction', 'compaction'])
    const graph = buildSessionGraph(tree, 'gemini')
    const path = tree.activePath()
    const compactions = path.filter(isCompactionRecord)
    expect(compactions.map((c) => graph.nodes.find((n) => n.id === c.uuid)?.title)).toEqual([
      'Answer questions about the alphabet.',
      'Answer questions about the alphabet, then read the notes.'
    ])
    // The first under C's answer (the CLI compressed before sending D), C kept under it; the
    // second under the read_file call and its result (it compressed before sending the result),
    // D and the call kept under it, then the result the CLI sent after.
    const first = path.indexOf(compactions[0] as TreeRecord)
    const second = path.indexOf(compactions[1] as TreeRecord)
    const title = (uuid: string) => graph.nodes.find((n) => n.id === uuid)?.title ?? ''
    expect(outline(path.slice(first - 1, second + 1), title)).toEqual([
      'model: C is the third letter of the alph',
      'compaction: Answer questions about the alphabet.',
      'user: question about C',
      'model: C is the third letter of the alph',
      'user: question about D',
      'model: D is the fourth letter of the alp',
      'user: read the notes',
      'model: [call read_file]',
      'user: [result read_file]',
      'compaction: Answer questions about the alphabet, then read the notes.'
    ])
    expect(outline(path.slice(second + 1), title)).toEqual([
      'user: question about D',
      'model: D is the fourth letter of the alp',
      'user: read the notes',
      'model: [call read_file]',
      'user: [result read_file]',
      'model: The notes say: letters E to Z are',
      'user: after the compressions',
      'model: Going on from the snapshot.'
    ])
  })

  it('rebuilds for continue what the CLI sent after each compression, the tool result included', async () => {
    const gemini = autoHome()
    const file = gemini.chats[0] ?? ''
    const { tree } = readSessionFile(file)
    const sent = sentRequests(gemini.ran, 'gemini-compress-auto')
    const sentEndingWith = (text: string) => sent.findLast((r) => r.at(-1)?.endsWith(text))
    const path = tree.activePath()
    // Each request the CLI made right after a compression, and the record of ours it ended with.
    const d = tree.checkpoints().find((c) => c.prompt === 'question about D')
    expect(asSent(contextPath(tree, d?.uuid ?? null))).toEqual(sentEndingWith('question about D'))
    const result = path.findLast(
      (r) => sentOf(r, toolNames(path)).at(-1)?.text === '[result read_file]'
    )
    expect(sentEndingWith('[result read_file]')?.map((m) => m.slice(0, 30))).toEqual([
      'user: <session_context>\nThis i',
      'model: Got it. Thanks for the ',
      'user: question about D',
      'model: D is the fourth letter ',
      'user: read the notes',
      'model: [call read_file]',
      'user: [result read_file]'
    ])
    expect(asSent(contextPath(tree, result?.uuid ?? null))).toEqual(
      sentEndingWith('[result read_file]')
    )
    const last = tree.checkpoints().find((c) => c.prompt === 'after the compressions')
    const after = sentEndingWith('after the compressions')
    expect(asSent(contextPath(tree, last?.uuid ?? null))).toEqual(after)

    const continued = await runCli(['continue', file, '--cwd', gemini.workspace, '--json'], {
      env: gemini.env
    })
    expect(continued.code).toBe(0)
    const ours = readSessionFile((JSON.parse(continued.stdout) as { file: string }).file).tree
    expect(asSent(ours.activePath())).toEqual([
      ...(after ?? []),
      'model: Going on from the snapshot.'
    ])
  })
})
