// Codex CLI 0.171.0's compactions, made by the real CLI (test/fixtures/codex-compact/README.md):
// `/compact` in the TUI after two prompts, and Codex compacting by itself in `codex exec` (once in
// the middle of a turn, once before the next prompt). Each is a compaction node of the tree, listed
// by inspect in its summaries, and what `continue` writes is what Codex itself sent its model after
// it (sent.jsonl: the messages of each request the CLI made): the prompts it kept, its summary,
// then what came after. And 0.58.0's, whose compacted line names no replacement history
// (test/fixtures/codex-compact-old): the context is rebuilt as that version rebuilt it.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contextPath } from '../../src/core/session/continue-foreign'
import { codex as codexReader } from '../../src/core/session/foreign/codex'
import { readSessionFile } from '../../src/core/session/load'
import {
  contentText,
  isCompactionRecord,
  type SessionTree,
  type TreeRecord
} from '../../src/core/session/tree'
import { ViewedSession } from '../../src/core/studio/viewed-session'
import { buildSessionGraph } from '../../src/core/views/session-graph'
import { appendFromChild } from '../support/append-from-child'
import { runCli } from '../support/cli'
import { TOOL_FIXTURES, codexHome } from './tool-homes'

const HARNESS_BLOCK = /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/

function rollouts() {
  const codex = codexHome('workspace-after', 'codex-compact')
  const day = join(codex.toolHome, 'sessions', '2026', '12', '03')
  const [tui, exec] = readdirSync(day)
    .sort()
    .map((f) => join(day, f))
  if (tui === undefined || exec === undefined) throw new Error('two rollouts expected')
  return { codex, tui, exec }
}

/** A message of sent.jsonl: its first 200 characters; a long one's size in bytes too. */
interface SentMessage {
  role: string
  text: string
  bytes?: number
}

/** The messages of each request Codex made, its harness blocks left out. */
function sentMessages(fixture: string): SentMessage[][] {
  return readFileSync(join(TOOL_FIXTURES, fixture, 'sent.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) =>
      (JSON.parse(line) as SentMessage[]).filter(
        (m) => !HARNESS_BLOCK.test(m.text) && !m.text.startsWith('<environment_context>')
      )
    )
}

/** The messages of each request Codex made (its harness blocks left out), as role: text. */
function sentRequests(ran: string, fixture = 'codex-compact'): string[][] {
  return sentMessages(fixture).map((request) =>
    request.map((m) => `${m.role}: ${m.text.split(ran).join('<ws>')}`)
  )
}

/** The last request whose last message is the prompt `text`. */
const lastRequestWith = (sent: string[][], text: string) =>
  sent.findLast((request) => request.at(-1) === `user: ${text}`) ?? []

/** The tree of a rollout and the record of its prompt `prompt`. */
function promptNode(file: string, prompt: string) {
  const { tree } = readSessionFile(file)
  const found = tree.checkpoints().find((c) => c.prompt === prompt)
  if (found === undefined) throw new Error(`no prompt ${prompt}`)
  return { tree, uuid: found.uuid }
}

/** The messages of records as a model is sent them (tool calls and results left out). */
function asSent(records: readonly TreeRecord[], ran = '<ws>'): string[] {
  return records.flatMap((r) => {
    const text =
      r.type === 'user' || r.type === 'assistant'
        ? typeof r.message.content === 'string'
          ? r.message.content
          : r.message.content
              .filter((b) => b.type === 'text')
              .map((b) => (b as { text: string }).text)
              .join('')
        : r.type === 'custom_message'
          ? contentText(r.content)
          : ''
    if (text === '') return []
    const role = r.type === 'assistant' ? 'assistant' : 'user'
    return [`${role}: ${text.slice(0, 200).split(ran).join('<ws>')}`]
  })
}

describe('Codex CLI compactions', () => {
  it('draws /compact as a compaction node between the turns, its summary as Codex sends it', () => {
    const { tui } = rollouts()
    const loaded = readSessionFile(tui)
    expect(loaded.problems).toEqual([])
    const { tree } = loaded
    // /compact is no prompt of Codex's (no user message), and the summary it asked for is no answer.
    expect(tree.checkpoints().map((c) => c.prompt)).toEqual([
      'write one',
      'write two',
      'after the compaction'
    ])
    const path = tree.activePath()
    const compactions = path.filter(isCompactionRecord)
    expect(compactions).toHaveLength(1)
    const compaction = compactions[0] as TreeRecord
    const at = path.indexOf(compaction)
    expect(asSent([path[at - 1] as TreeRecord])).toEqual(['assistant: two.txt written.'])
    expect(asSent([path[at + 1] as TreeRecord])).toEqual(['user: after the compaction'])
    const summary = tree.summaries()
    expect(summary.map((s) => s.kind)).toEqual(['compaction'])
    expect(summary[0]?.summary).toContain(
      'Summary: the person asked for one.txt and two.txt; both were written.'
    )
    const graph = buildSessionGraph(tree, 'codex')
    const node = graph.nodes.find((n) => n.id === compaction.uuid)
    expect(node?.kind).toBe('compaction')
    expect(node?.title).toMatch(/^Summary: the person asked for one.txt and two.txt/)
    // The model's summary is drawn once: in the compaction, not as an answer too.
    const answers = path.filter(
      (r) => r.type === 'assistant' && asSent([r])[0]?.includes('Summary:')
    )
    expect(answers).toEqual([])
  })

  it('continues with what Codex sent after each compaction: the prompts it kept, its summary, what followed', () => {
    const { codex, tui, exec } = rollouts()
    const sent = sentRequests(codex.ran)
    // After /compact: "write one" and "write two" kept, then the summary, then the new prompt.
    const afterCompact = promptNode(tui, 'after the compaction')
    const tuiSent = lastRequestWith(sent, 'after the compaction')
    expect(tuiSent.map((m) => m.slice(0, 30))).toEqual([
      'user: write one',
      'user: write two',
      'user: Another language model s',
      'user: after the compaction'
    ])
    expect(asSent(contextPath(afterCompact.tree, afterCompact.uuid), codex.ran)).toEqual(tuiSent)
    // Codex compacted twice by itself in exec: mid-turn after "auto one"'s tool call, and before
    // "auto two" (the second summary replacing the first, its answer "ok" gone).
    const { tree } = readSessionFile(exec)
    expect(tree.summaries().map((s) => s.kind)).toEqual(['compaction', 'compaction'])
    const first = tree.activePath().find(isCompactionRecord) as TreeRecord
    const execSent = sent.filter((request) => request.includes('user: auto one'))
    expect(asSent(contextPath(tree, first.uuid), codex.ran)).toEqual(
      execSent.find((request) => request.at(-1)?.startsWith('user: Another language model'))
    )
    const autoTwo = promptNode(exec, 'auto two')
    expect(asSent(contextPath(autoTwo.tree, autoTwo.uuid), codex.ran)).toEqual(
      lastRequestWith(sent, 'auto two')
    )
  })

  it('inspect lists the compactions in its summaries; continue writes what Codex kept', async () => {
    const { codex, tui } = rollouts()
    const json = await runCli(['inspect', tui, '--json'], { env: codex.env })
    expect(json.code).toBe(0)
    const summaries = (JSON.parse(json.stdout) as { summaries: { kind: string }[] }).summaries
    expect(summaries.map((s) => s.kind)).toEqual(['compaction'])
    const text = await runCli(['inspect', tui], { env: codex.env })
    // Listed by the model's own summary, not by the prefix Codex sends every summary with.
    expect(text.stdout).toContain('compaction: Summary: the person asked for one.txt')
    const continued = await runCli(['continue', tui, '--cwd', codex.workspace, '--json'], {
      env: codex.env
    })
    expect(continued.code).toBe(0)
    const ours = readSessionFile((JSON.parse(continued.stdout) as { file: string }).file).tree
    expect(asSent(ours.activePath(), codex.ran).map((m) => m.slice(0, 30))).toEqual([
      'user: write one',
      'user: write two',
      'user: Another language model s',
      'user: after the compaction',
      'assistant: Carrying on from th'
    ])
  })

  it('follows a compaction Codex appends while the rollout is shown', async () => {
    const { codex, tui } = rollouts()
    const lines = readFileSync(tui, 'utf8').split('\n')
    const at = lines.findIndex((l) => l.includes('"type":"compacted"'))
    writeFileSync(tui, `${lines.slice(0, at).join('\n')}\n`)
    const session = new ViewedSession(tui, codexReader, {
      home: codex.home,
      claudeHome: join(codex.home, 'no-claude')
    })
    try {
      session.follow(() => undefined)
      expect(session.tree.summaries()).toEqual([])
      appendFromChild(tui, lines.slice(at).join('\n'))
      await expect
        .poll(() => session.tree.checkpoints().map((c) => c.prompt), { timeout: 10_000 })
        .toContain('after the compaction')
      const prompt = session.tree.checkpoints().find((c) => c.prompt === 'after the compaction')
      expect(
        asSent(contextPath(session.tree, prompt?.uuid ?? null)).map((m) => m.slice(0, 30))
      ).toEqual([
        'user: write one',
        'user: write two',
        'user: Another language model s',
        'user: after the compaction'
      ])
    } finally {
      session.close()
    }
  })
})

describe('Codex CLI 0.58.0 compactions (no replacement history)', () => {
  function oldRollouts() {
    const codex = codexHome('workspace-after', 'codex-compact-old')
    const day = join(codex.toolHome, 'sessions', '2026', '12', '03')
    const [tui, auto, big] = readdirSync(day)
      .sort()
      .map((f) => join(day, f))
    if (tui === undefined || auto === undefined || big === undefined)
      throw new Error('three rollouts expected')
    return { codex, tui, auto, big, sent: sentRequests(codex.ran, 'codex-compact-old') }
  }
  const keptOf = (tree: SessionTree, compaction: TreeRecord) =>
    ((compaction as { details?: { keptBefore?: string[] } }).details?.keptBefore ?? []).map(
      (uuid) => tree.get(uuid) as TreeRecord
    )

  it('keeps the prompts and the earlier summary 0.58.0 kept, its summary sent bare', () => {
    const { codex, tui, sent } = oldRollouts()
    const { tree, uuid } = promptNode(tui, 'after the second compaction')
    expect(tree.summaries().map((s) => s.kind)).toEqual(['compaction', 'compaction'])
    const [first, second] = tree.activePath().filter(isCompactionRecord)
    // 0.58.0 sends the model's summary as it is, no prefix, and holds it as a user message: the
    // second /compact keeps the first one's summary with the prompts.
    expect(asSent([first as TreeRecord])).toEqual([
      'user: First summary: one.txt and two.txt were written.'
    ])
    const codexSent = lastRequestWith(sent, 'after the second compaction')
    expect(codexSent).toEqual([
      'user: write one',
      'user: write two',
      'user: First summary: one.txt and two.txt were written.',
      'user: after the compaction',
      'user: Second summary: the compaction was followed by one more prompt.',
      'user: after the second compaction'
    ])
    expect(asSent(keptOf(tree, second as TreeRecord))).toEqual(codexSent.slice(0, 4))
    expect(asSent(contextPath(tree, uuid), codex.ran)).toEqual(codexSent)
    const once = promptNode(tui, 'after the compaction')
    expect(asSent(contextPath(once.tree, once.uuid), codex.ran)).toEqual(
      lastRequestWith(sent, 'after the compaction')
    )
  })

  it('continues as a resumed 0.58.0 did after it compacted by itself', () => {
    const { codex, auto, sent } = oldRollouts()
    const { tree, uuid } = promptNode(auto, 'auto two')
    // Codex compacted after the answer, asked the model again ("ok"); `exec resume` rebuilt that.
    expect(lastRequestWith(sent, 'auto two')).toEqual([
      'user: auto one',
      'user: Auto summary: auto.txt was written.',
      'assistant: ok',
      'user: auto two'
    ])
    expect(asSent(contextPath(tree, uuid), codex.ran)).toEqual(lastRequestWith(sent, 'auto two'))
  })

  it('keeps the newest user messages within 80,000 bytes and the one Codex cut, kept whole', () => {
    const { codex, big, sent } = oldRollouts()
    const { tree, uuid } = promptNode(big, 'after the big compaction')
    const compaction = tree.activePath().find(isCompactionRecord) as TreeRecord
    // "big three" is 59,999 bytes (30,005 characters): "big two" (30,000) no longer fits whole,
    // Codex cuts its middle and keeps no older one; "big one" is gone.
    const codexSent = sentMessages('codex-compact-old').findLast(
      (request) => request.at(-1)?.text === 'after the big compaction'
    )
    expect(codexSent?.map((m) => [m.text.slice(0, 9), m.bytes])).toEqual([
      ['big two: ', 20_002],
      ['big three', 59_999],
      ['Big summa', undefined],
      ['ok', undefined],
      ['after the', undefined]
    ])
    const kept = keptOf(tree, compaction)
    expect(kept.map((r) => asSent([r])[0]?.slice(0, 15))).toEqual([
      'user: big two: ',
      'user: big three'
    ])
    // Its cut (a marker counting the cut tokens by Codex's tokenizer) is not redone: kept whole.
    const cut = kept[0]
    if (cut?.type !== 'user') throw new Error('a prompt expected')
    expect(contentText(cut.message.content)).toHaveLength(30_000)
    expect(asSent(contextPath(tree, uuid), codex.ran)).toEqual(
      lastRequestWith(sent, 'after the big compaction')
    )
  })
})
