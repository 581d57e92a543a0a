// Issue 26, item 13: "Markdown export lets raw HTML through (an escaped backtick before
// `<img onerror>`, a fence opener whose info string holds a backtick, then `<script>`), which
// runs in any viewer that renders HTML; remote images (`![](https://…)`) are kept, unlike the
// HTML export. Disarm HTML outside verified code; drop or neutralise remote images."
//
// What the export writes is rendered by two real Markdown renderers with raw HTML on (marked,
// GFM; markdown-it, CommonMark with tables), as a viewer would: the hostile session exported by
// the real CLI, then random text built from the characters that open and close code, tags,
// tables, quotes and lists. No element but the renderers' own may come out, and no image.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import MarkdownIt from 'markdown-it'
import { marked } from 'marked'
import { describe, expect, it } from 'vitest'
import { prose } from '../../src/core/export/markdown'
import { runCli } from '../support/cli'

/** What the renderers make of Markdown themselves; anything else came from the text. */
const OWN_TAGS = new Set([
  ...['p', 'code', 'pre', 'blockquote', 'em', 'strong', 'a', 'ul', 'ol', 'li', 'hr', 'br'],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'del', 's', 'input'],
  ...['table', 'thead', 'tbody', 'tr', 'th', 'td']
])
const markdownIt = new MarkdownIt({ html: true })

function rendered(markdown: string): string[] {
  return [marked.parse(markdown, { async: false, gfm: true }), markdownIt.render(markdown)]
}

/** The elements in `html` that no renderer makes of Markdown (img among them). */
function foreignElements(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][\w:-]*)/g)]
    .map((m) => (m[1] as string).toLowerCase())
    .filter((tag) => !OWN_TAGS.has(tag))
}

const at = '2026-01-01T00:00:00.000Z'
const HOSTILE = [
  // The finding: an escaped backtick before the tag made it read as the end of a code span.
  'an escaped \\`<img src=x onerror=alert(1)>` backtick',
  // The finding: a fence whose info string holds a backtick opens no block.
  '```x`y',
  '<script>alert(2)</script>',
  '```',
  // A code span across two lines, which a viewer pairs.
  'a ` span',
  'goes ` <img src=x onerror=alert(3)> `here`',
  // A fence in a list item, ended early by the list's end.
  '- item',
  '  ```',
  '  code',
  '```',
  '<img src=x onerror=alert(4)>',
  '```',
  // A table splits a code span at its pipe.
  '| `a | <img src=x onerror=alert(5)>` |',
  '| --- | --- |',
  // Remote images, inline and by reference.
  '![tracker](https://example.com/pixel.png)',
  '![ref][r]',
  '',
  '[r]: https://example.com/ref.png',
  // Left open: the text after it must not be read as inside it.
  '~~~'
].join('\n')

function hostileSession(dir: string): string {
  const records = [
    {
      type: 'session',
      uuid: 's',
      parentUuid: null,
      timestamp: at,
      version: 1,
      sessionId: 's',
      cwd: dir
    },
    {
      type: 'user',
      uuid: 'p1',
      parentUuid: null,
      timestamp: at,
      message: { role: 'user', content: `\`\`\`<img src=x onerror=alert(6)> title\n${HOSTILE}` }
    },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'p1',
      timestamp: at,
      message: { role: 'assistant', content: [{ type: 'text', text: HOSTILE }] }
    },
    {
      type: 'user',
      uuid: 'p2',
      parentUuid: 'a1',
      timestamp: at,
      message: { role: 'user', content: 'after it <img src=x onerror=alert(7)>' }
    }
  ]
  const file = join(dir, 'hostile.jsonl')
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return file
}

describe('the Markdown export of a hostile session', () => {
  it('renders no element of the session and no image, in marked and markdown-it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-md-'))
    const run = await runCli(['export', hostileSession(dir), '--format', 'md'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('**Prompt**')
    for (const html of rendered(run.stdout)) {
      expect(foreignElements(html)).toEqual([])
      // The images are there as text.
      expect(html).toContain('![tracker](https://example.com/pixel.png)')
    }
  })
})

/**
 * Text made of what opens and closes code, tags, tables, quotes, lists and images: few pieces,
 * so the ones that combine into an attack meet often.
 */
const hostileText = fc
  .array(
    fc.constantFrom(
      ...['`', '``', '```', '~~~', '\\', '\\`', '```x`y', '<img src=x onerror=y>', '<script>'],
      ...['&', '|', '| --- |', '\n', '\n', ' ', '    ', '\t', '- ', '1. ', '> ', 'x', '<!--'],
      ...['![x](https://e.x/i.png)', 'www.e.x', '[r]: https://e.x/r.png', '![r]']
    ),
    { maxLength: 30 }
  )
  .map((parts) => parts.join(''))

describe('prose, on random text', () => {
  it('leaves no element and no image for a renderer to make, alone, quoted or after another', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (first, second) => {
        const quoted = (t: string) =>
          prose(t)
            .split('\n')
            .map((line) => (line === '' ? '>' : `> ${line}`))
            .join('\n')
        for (const markdown of [
          prose(first),
          quoted(first),
          `${prose(first)}\n\n${prose(second)}`,
          `- a list\n\n  ${prose(first).split('\n').join('\n  ')}\n\n${prose(second)}`
        ]) {
          for (const html of rendered(markdown)) expect(foreignElements(html)).toEqual([])
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 2000), seed: Number(process.env.FUZZ_SEED ?? 26) }
    )
  }, 300_000)
})
