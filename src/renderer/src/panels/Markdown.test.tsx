// @vitest-environment happy-dom
// Issue 29, item 3: summaries, reports and answers are drawn as Markdown, sanitized: no raw HTML,
// no remote image. The app's Markdown view (panels/Markdown.tsx) is rendered by React into a
// real DOM, from hostile text and from random text made of the characters that open and close
// tags, links, images, code and quotes; every element must be one the view names, with only the
// attributes it sets, every link http(s) or mailto, and no image anywhere.
import fc from 'fast-check'
import { act, createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_MARKDOWN_CHARS, Markdown } from './Markdown'

const ALLOWED = new Set(
  [
    ...['div', 'p', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'hr', 'br'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td', 'strong', 'em', 's', 'a', 'code', 'pre']
  ].map((tag) => tag.toUpperCase())
)
const ATTRIBUTES = new Set(['class', 'href', 'target', 'rel', 'start'])

const HOSTILE = [
  '<script>window.ran = 1</script>',
  '<img src=x onerror="window.ran = 1">',
  '<iframe src="https://evil.example/"></iframe>',
  '<style>body { display: none }</style><b onmouseover="alert(1)">bold</b>',
  '[click](javascript:alert(1))',
  '[click](JAVASCRIPT:alert(1))',
  '[click]( javascript:alert(1) )',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click](file:///etc/passwd)',
  '[click](vbscript:msgbox(1))',
  '<javascript:alert(1)>',
  '![tracker](https://evil.example/pixel.png)',
  '![x](javascript:alert(1))',
  '![](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '[![nested](https://evil.example/a.png)](https://evil.example/)',
  '```html\n<script>alert(1)</script>\n```',
  '`<img src=x onerror=alert(1)>`',
  '<a href="javascript:alert(1)">html link</a>',
  '<svg onload=alert(1)>',
  '> <details open ontoggle=alert(1)>',
  '| a | <img src=x> |\n| - | - |\n| <script>1</script> | b |',
  '[ref]\n\n[ref]: javascript:alert(1)',
  '<!-- comment --><?php echo 1 ?><![CDATA[x]]>'
]

let container: HTMLElement | null = null
afterEach(() => {
  container?.remove()
  container = null
})

function draw(text: string): HTMLElement {
  const host = document.createElement('div')
  document.body.append(host)
  const root = createRoot(host)
  act(() => root.render(createElement(Markdown, { text })))
  container = host
  return host.firstElementChild as HTMLElement
}

/** What is wrong with the drawn view: elements, attributes or links it must not have. */
function problems(view: Element): string[] {
  const found: string[] = []
  for (const element of [view, ...view.querySelectorAll('*')]) {
    if (!ALLOWED.has(element.tagName)) found.push(`element ${element.tagName}`)
    for (const { name, value } of element.attributes) {
      if (!ATTRIBUTES.has(name)) found.push(`attribute ${name} on ${element.tagName}`)
      if (name === 'href' && !/^(https?:\/\/|mailto:)/i.test(value)) found.push(`href ${value}`)
    }
  }
  return found
}

// React's act() wants to know it runs in a test.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

describe('the Markdown view makes no element of the text', () => {
  it.each(HOSTILE)('draws %j with its own elements only', (text) => {
    const view = draw(text)
    expect(problems(view)).toEqual([])
    expect(view.querySelector('img, script, iframe, svg, style')).toBeNull()
    expect((globalThis as { ran?: number }).ran).toBeUndefined()
  })

  it('keeps raw HTML as text the reader sees, and an image as its alt text', () => {
    const view = draw('Hi <b onmouseover="x">there</b>\n\n![a tracker](https://evil.example/p.png)')
    expect(view.textContent).toContain('<b onmouseover="x">there</b>')
    expect(view.textContent).toContain('[image: a tracker]')
    // A link to the picture, a click away, is not a fetch.
    expect(view.querySelector('a')?.getAttribute('href')).toBe('https://evil.example/p.png')
  })

  it('draws what a summary holds: headings, lists, code, emphasis, safe links', () => {
    const view = draw(
      '## Goal\nShip **it**.\n\n- one\n- `two`\n\n1. first\n\n```\nnpm test\n```\n\n[docs](https://example.com/docs)'
    )
    expect(problems(view)).toEqual([])
    expect(view.querySelector('h5')?.textContent).toBe('Goal')
    expect(view.querySelector('strong')?.textContent).toBe('it')
    expect([...view.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'one',
      'two',
      'first'
    ])
    expect(view.querySelector('pre code')?.textContent).toBe('npm test\n')
    const link = view.querySelector('a')
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer')
    expect(link?.getAttribute('target')).toBe('_blank')
  })

  it('masks a key before it is drawn', () => {
    const key = `sk-ant-api03-${'aB3'.repeat(31)}xy`
    const view = draw(`the key is \`${key}\` and [${key}](https://example.com/?k=${key})`)
    expect(view.outerHTML).not.toContain('aB3aB3')
    expect(view.textContent).toContain('sk-ant-…(108 chars, masked)')
  })

  it('shows text past its bound as written, unparsed, and deep nesting as text', () => {
    const huge = `${'<script>x</script> [a](javascript:1) '.repeat(MAX_MARKDOWN_CHARS / 30)}`
    const view = draw(huge)
    expect(view.children).toHaveLength(0)
    expect(view.textContent).toBe(huge)
    const deep = draw(`${'> '.repeat(5_000)}deep\n${'['.repeat(50_000)}`)
    expect(problems(deep)).toEqual([])
    expect(deep.textContent).toContain('deep')
  })

  it('draws random text of tags, links, images and code with its own elements only', () => {
    const piece = fc.constantFrom(
      ...['<', '>', '/', '"', "'", '=', ' ', '\n', '`', '```', '[', ']', '(', ')', '!', '*', '_'],
      ...['script', 'img', 'src', 'onerror', 'javascript:', 'data:', 'https://x.example/', 'a'],
      ...['href', '|', '-', '#', '> ', '1. ', '\\', '&', '&lt;', '<!--', '-->', 'x']
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
        const view = draw(pieces.join(''))
        const found = problems(view)
        container?.remove()
        return found.length === 0
      }),
      { numRuns: 300, seed: 29 }
    )
  })
})
