// The pi reader held to what pi itself makes of the same files: the sessions in test/fixtures/pi
// were written by pi's own code (0.73.1, and 0.13.2 for the version 1 file), and each folder's
// pi-resumes.json is what pi 0.73.1's SessionManager.open() resumes from it: the leaf, the
// branch, and the messages of its context (README.md there). Ours must resume at the same place
// (issue 28 item 5) and carry on with the same context, a v1 compaction's kept part included
// (item 6).
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contextPath } from '../../src/core/session/continue-foreign'
import { readSessionFile } from '../../src/core/session/load'
import type { TreeRecord } from '../../src/core/session/tree'

const PI = resolve(import.meta.dirname, '../fixtures/pi')

interface Resumes {
  leafId: string
  leafType: string
  branch: string[]
  messages: { role: string; text: string }[]
}

function fixture(name: string) {
  const dir = join(PI, name)
  const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '')
  const resumes = JSON.parse(readFileSync(join(dir, 'pi-resumes.json'), 'utf8')) as Resumes
  return { file, resumes, loaded: readSessionFile(file) }
}

/** A record of ours as pi's context holds the message it came from: role, content JSON cut at 120. */
function asPi(r: TreeRecord): { role: string; text: string } {
  const cut = (value: unknown) => JSON.stringify(value).slice(0, 120)
  switch (r.type) {
    case 'custom_message':
      return { role: 'compactionSummary', text: cut(r.content) }
    case 'assistant': {
      const content = r.message.content
      const blocks = typeof content === 'string' ? content : content.map(toolCallOfPi)
      return { role: 'assistant', text: cut(blocks) }
    }
    case 'user': {
      const content = r.message.content
      const result = typeof content === 'string' ? undefined : content[0]
      return result?.type === 'tool_result'
        ? { role: 'toolResult', text: cut(result.content) }
        : { role: 'user', text: cut(content) }
    }
    default:
      return { role: r.type, text: '' }
  }
}

function toolCallOfPi(block: { type: string; [k: string]: unknown }) {
  return block.type === 'tool_use'
    ? { type: 'toolCall', id: block.id, name: block.name, arguments: block.input }
    : block
}

/** The last entry of pi's branch that we draw: a message (ids of a v1 file are pi's migration's). */
const lastMessageOf = (resumes: Resumes) =>
  resumes.branch
    .filter((e) => e.includes(' message '))
    .at(-1)
    ?.split(' ')[0]

describe("a pi session resumes where pi resumes it, with pi's context", () => {
  it.each(['leaf-model-change', 'leaf-thinking-level', 'leaf-session-info', 'leaf-label'])(
    '%s: the last line is no message, and it carries the /tree move',
    (name) => {
      const { loaded, resumes } = fixture(name)
      expect(loaded.problems).toEqual([])
      expect(resumes.leafType).not.toBe('message')
      expect(loaded.tree.leafUuid).toBe(lastMessageOf(resumes))
      expect(contextPath(loaded.tree, loaded.tree.leafUuid).map(asPi)).toEqual(resumes.messages)
      // Not the branch written last ("other branch"): that one is a leaf beside it.
      expect(loaded.tree.leaves()).toHaveLength(2)
    }
  )

  it('compaction-v3: the summary, the part it kept (a split turn), and what followed', () => {
    const { loaded, resumes } = fixture('compaction-v3')
    expect(loaded.tree.leafUuid).toBe(resumes.leafId)
    expect(contextPath(loaded.tree, loaded.tree.leafUuid).map(asPi)).toEqual(resumes.messages)
  })

  it('v1-compaction: firstKeptEntryIndex keeps the entries pi keeps (item 6)', () => {
    const { loaded, resumes } = fixture('v1-compaction')
    expect(loaded.problems).toEqual([])
    const path = loaded.tree.activePath()
    expect(path.at(-1)?.uuid).toBe(loaded.tree.leafUuid)
    expect(contextPath(loaded.tree, loaded.tree.leafUuid).map(asPi)).toEqual(resumes.messages)
    // The same number of entries on the branch as pi's migration gives it (its ids differ).
    expect(path).toHaveLength(resumes.branch.length)
  })
})
