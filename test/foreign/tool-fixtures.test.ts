// The sessions under test/fixtures were made by the real tools (each folder's README.md says how);
// these tests hold each fixture to what its README claims, so that a reader's test built on them
// starts from files that are whole and show what they are said to show.
import { gunzipSync } from 'node:zlib'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../fixtures')

type Rec = Record<string, unknown> & { type?: string }

function files(dir: string, ending: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ending) && statSync(join(dir, f)).isFile())
    .map((f) => join(dir, f))
    .sort()
}

const lines = (file: string): Rec[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Rec)

const text = (r: Rec): string => JSON.stringify((r.message as Rec | undefined)?.content ?? '')
const one = (dir: string, ending: string): string => {
  const found = files(dir, ending)
  expect(found).toHaveLength(1)
  return found[0] as string
}
const sqliteHeader = (gz: string) => gunzipSync(readFileSync(gz)).subarray(0, 16).toString('latin1')

describe('every session file in the fixtures', () => {
  const all = [
    'claude-code',
    'pi',
    'codex',
    'codex-compact',
    'codex-compact-old',
    'gemini-cli',
    'gemini-compress',
    'gemini-compress-auto'
  ].flatMap((tool) => files(join(ROOT, tool), '.jsonl').filter((f) => !f.includes('/make/')))

  it('is JSON lines throughout, and none holds the dummy API key the runs used', () => {
    expect(all.length).toBeGreaterThan(20)
    for (const file of all) {
      expect(() => lines(file), file).not.toThrow()
      expect(readFileSync(file, 'utf8'), file).not.toContain('sk-offline')
    }
  })
})

describe('Claude Code fixtures', () => {
  const cc = (name: string) => join(ROOT, 'claude-code', name, 'claude', 'projects')

  it('interrupt-bash-clear has both interrupt markers, bash mode, a compaction and a /clear file', () => {
    const [before, after] = files(cc('interrupt-bash-clear'), '.jsonl').map(lines)
    const first = (before ?? []).filter((r) => r.type === 'user')
    const marker = (t: string) =>
      first.find((r) => text(r) === JSON.stringify([{ type: 'text', text: t }]))
    expect(marker('[Request interrupted by user for tool use]')?.interruptedMessageId).toBeTruthy()
    expect(marker('[Request interrupted by user]')?.interruptedMessageId).toBeTruthy()
    expect(first.some((r) => text(r).includes('<bash-input>echo hi > bang.txt</bash-input>'))).toBe(
      true
    )
    expect(first.some((r) => text(r).includes('<bash-stdout>'))).toBe(true)
    expect(before?.some((r) => r.subtype === 'compact_boundary')).toBe(true)
    const cleared = (after ?? []).filter((r) => r.type === 'user' || r.type === 'system')
    expect(text(cleared[1] as Rec)).toContain('<command-name>/clear</command-name>')
    expect(cleared[2]).toMatchObject({ type: 'system', subtype: 'local_command' })
  })

  it('ide-compact has /compact in the second text block of its user message', () => {
    const records = lines(one(cc('ide-compact'), '.jsonl'))
    const blocks = records
      .map((r) => (r.message as Rec | undefined)?.content)
      .find((c) => Array.isArray(c) && c.length === 2) as { text: string }[]
    expect(blocks[0]?.text).toMatch(/^<system-reminder>The user provided the following references/)
    expect(blocks[1]?.text).toMatch(/^<command-name>\/compact<\/command-name>/)
  })

  it('subagents-progress-2.1.63 writes agent_progress records inline, naming the Agent call', () => {
    const main = files(cc('subagents-progress-2.1.63'), '.jsonl').find(
      (f) => !f.includes('/subagents/')
    )
    const progress = lines(main as string).filter((r) => r.type === 'progress')
    expect(progress.length).toBeGreaterThan(0)
    for (const r of progress) {
      expect((r.data as Rec).type).toBe('agent_progress')
      expect(r.parentToolUseID).toMatch(/^toolu_/)
    }
  })

  it.each(['rewind-continue', 'rewind-continue-restart', 'rewind-continue-code'])(
    '%s: Claude Code restored a.txt and deleted b, e and f (first tracked after the restore point)',
    (name) => {
      const dir = join(ROOT, 'claude-code', name)
      expect(readdirSync(join(dir, 'workspace-before-restore')).sort()).toEqual([
        'a.txt',
        'b.txt',
        'e.txt',
        'f.txt'
      ])
      expect(readdirSync(join(dir, 'workspace-after'))).toEqual(['a.txt'])
      expect(readFileSync(join(dir, 'workspace-after', 'a.txt'), 'utf8')).toBe('a0\n')
      expect(readFileSync(join(dir, 'screen-rewind-list.txt'), 'utf8')).toMatch(
        /edit a and write b[\s\S]*second pass[\s\S]*write e[\s\S]*write f[\s\S]*\(current\)/
      )
    }
  )
})

describe('pi fixtures', () => {
  it.each([
    ['leaf-model-change', 'model_change'],
    ['leaf-thinking-level', 'thinking_level_change'],
    ['leaf-session-info', 'session_info'],
    ['leaf-label', 'label']
  ])('%s ends with a %s that pi resumes at, off the last message written', (name, type) => {
    const dir = join(ROOT, 'pi', name)
    const records = lines(one(dir, '.jsonl'))
    const last = records.at(-1) as Rec
    expect(last.type).toBe(type)
    const resumes = JSON.parse(readFileSync(join(dir, 'pi-resumes.json'), 'utf8')) as Rec
    expect(resumes.leafId).toBe(last.id)
    const lastMessage = records.filter((r) => r.type === 'message').at(-1) as Rec
    expect(last.parentId).not.toBe(lastMessage.id)
  })

  it('v1-compaction is a v1 file with firstKeptEntryIndex naming a line of it', () => {
    const records = lines(one(join(ROOT, 'pi', 'v1-compaction'), '.jsonl'))
    expect(records[0]).toMatchObject({ type: 'session' })
    expect(records[0]).not.toHaveProperty('version')
    expect(records.some((r) => 'id' in r && r.type !== 'session')).toBe(false)
    const compaction = records.find((r) => r.type === 'compaction') as Rec
    const kept = records[compaction.firstKeptEntryIndex as number] as Rec
    expect(text(kept)).toContain('third prompt')
  })
})

describe('Codex CLI fixtures', () => {
  const rollouts = files(join(ROOT, 'codex', 'sessions'), '.jsonl')

  it('each rollout opens with its session_meta, and the fork names the session it came from', () => {
    expect(rollouts).toHaveLength(4)
    const metas = rollouts.map((f) => (lines(f)[0] as Rec).payload as Rec)
    for (const f of rollouts) expect((lines(f)[0] as Rec).type).toBe('session_meta')
    const fork = metas.find((m) => m.forked_from_id) as Rec
    expect(metas.map((m) => m.id)).toContain(fork.forked_from_id)
    // the backtrack's segment carries the same thread id as the file it follows
    expect(new Set(metas.map((m) => m.id)).size).toBe(3)
  })

  it('keeps its databases as whole SQLite files', () => {
    for (const db of ['state_5.sqlite.gz', 'thread_history_1.sqlite.gz'])
      expect(sqliteHeader(join(ROOT, 'codex', db))).toBe('SQLite format 3\0')
  })
})

describe('Codex CLI compaction fixtures', () => {
  it('codex-compact holds /compact and two automatic compactions, each with its replacement history', () => {
    const rollouts = files(join(ROOT, 'codex-compact', 'sessions'), '.jsonl')
    const compacted = rollouts.map((f) => lines(f).filter((r) => r.type === 'compacted'))
    expect(compacted.map((c) => c.length)).toEqual([1, 2])
    for (const c of compacted.flat()) {
      const payload = c.payload as Rec
      expect(payload.message).toMatch(/^Another language model started/)
      expect(Array.isArray(payload.replacement_history)).toBe(true)
    }
    // the TUI's /compact: the screen shows it done
    expect(readFileSync(join(ROOT, 'codex-compact', 'screen-compacted.txt'), 'utf8')).toContain(
      'Context compacted'
    )
  })

  it("codex-compact-old is 0.58.0's: two /compact, two automatic compactions, each line only its message", () => {
    const rollouts = files(join(ROOT, 'codex-compact-old', 'sessions'), '.jsonl').map(lines)
    expect(rollouts.map((r) => (r[0]?.payload as Rec).cli_version)).toEqual([
      '0.58.0',
      '0.58.0',
      '0.58.0'
    ])
    const compacted = rollouts.map((r) => r.filter((l) => l.type === 'compacted'))
    expect(compacted.map((c) => c.length)).toEqual([2, 1, 1])
    for (const c of compacted.flat()) expect(Object.keys(c.payload as Rec)).toEqual(['message'])
    expect(readFileSync(join(ROOT, 'codex-compact-old', 'screen-compacted.txt'), 'utf8')).toContain(
      'Compact task completed'
    )
  })
})

describe('Gemini CLI compression fixture', () => {
  it("gemini-compress's chat holds the compression's $set: the summary, then the fixed reply", () => {
    const [chat] = files(
      join(ROOT, 'gemini-compress', 'gemini-home', 'tmp', 'ws', 'chats'),
      '.jsonl'
    )
    const sets = lines(chat as string).filter((r) =>
      Array.isArray((r.$set as Rec | undefined)?.messages)
    )
    const last = ((sets.at(-1) as Rec).$set as Rec).messages as Rec[]
    expect(JSON.stringify(last[1]?.content)).toContain('<state_snapshot>')
    expect(JSON.stringify(last[2]?.content)).toContain('Got it. Thanks for the additional context!')
    expect(readFileSync(join(ROOT, 'gemini-compress', 'screen-compressed.txt'), 'utf8')).toContain(
      'Chat history compressed'
    )
  })
})

describe('Gemini CLI compressing by itself (fixture)', () => {
  const dir = join(ROOT, 'gemini-compress-auto')

  it('compressed twice, untold, after answers whose usage was over half the token limit', () => {
    const chat = lines(one(join(dir, 'gemini-home', 'tmp', 'ws', 'chats'), '.jsonl'))
    const sets = chat.filter((r) => Array.isArray((r.$set as Rec | undefined)?.messages))
    const compressions = sets
      .map((r) => (r.$set as Rec).messages as Rec[])
      .filter((m) => JSON.stringify(m[2]?.content ?? '').includes('Got it. Thanks'))
    expect(compressions).toHaveLength(2)
    // each after an answer reporting 600000 prompt tokens (gemini-2.5-flash's limit is 1048576)
    for (const r of sets.slice(1)) {
      const before = chat.slice(0, chat.indexOf(r)).findLast((m) => m.type === 'gemini')
      expect((before?.tokens as Rec | undefined)?.input).toBe(600000)
    }
    // the second between the read_file call (the tail it kept ends with it) and its result
    const tail = compressions[1]?.at(-1)
    expect(JSON.stringify(tail?.content)).toContain('"functionCall"')
    const after = chat.slice(chat.indexOf(sets.at(-1) as Rec) + 1).filter((r) => r.type === 'user')
    expect(JSON.stringify(after[0]?.content)).toContain('"functionResponse"')
    expect(chat.filter((r) => r.type === 'info').map((r) => r.content)).toEqual([
      'Context compressed from 57% to 0%.',
      'Context compressed from 57% to 0%.'
    ])
    // no /compress was typed
    expect(chat.some((r) => JSON.stringify(r.content ?? '').includes('/compress'))).toBe(false)
    expect(readFileSync(join(dir, 'screen-compressed.txt'), 'utf8')).toContain(
      'Context compressed from 57% to 0%'
    )
  })
})

describe('Gemini CLI fixtures', () => {
  const home = join(ROOT, 'gemini-cli', 'gemini-home-before-restore')

  it('each checkpoint names a commit of the shadow repository kept beside it', () => {
    const checkpoints = files(join(home, 'tmp', 'ws', 'checkpoints'), '.json')
    expect(checkpoints).toHaveLength(3)
    for (const file of checkpoints) {
      const hash = (JSON.parse(readFileSync(file, 'utf8')) as Rec).commitHash as string
      expect(
        existsSync(
          join(home, 'history', 'ws', 'dot-git', 'objects', hash.slice(0, 2), hash.slice(2))
        )
      ).toBe(true)
    }
  })

  it('its chat recordings open with a session header', () => {
    for (const file of files(
      join(ROOT, 'gemini-cli', 'gemini-home', 'tmp', 'ws', 'chats'),
      '.jsonl'
    ))
      expect(lines(file)[0]).toHaveProperty('sessionId')
  })
})

describe('OpenCode fixtures', () => {
  it('keeps its database whole and an export of each session it lists', () => {
    const dir = join(ROOT, 'opencode')
    expect(sqliteHeader(join(dir, 'opencode-data', 'opencode.db.gz'))).toBe('SQLite format 3\0')
    const listed = readFileSync(join(dir, 'session-list.txt'), 'utf8').match(/ses_\w+/g) ?? []
    expect(listed).toHaveLength(2)
    for (const id of listed) {
      const exported = JSON.parse(readFileSync(join(dir, `export-${id}.json`), 'utf8')) as Rec
      expect((exported.info as Rec).id).toBe(id)
    }
  })
})
