import { describe, expect, it } from 'vitest'
import { fenced, prose } from './markdown'

describe('Markdown of session text', () => {
  it('writes HTML in prose as text, and leaves code as it is', () => {
    const text = [
      'run <script>alert(1)</script> & see',
      'inline `a <b> c` and ``x ` <y>`` stay',
      '```html',
      '<div class="kept">&amp;</div>',
      '```',
      'after <img src=x>'
    ].join('\n')
    expect(prose(text).split('\n')).toEqual([
      'run &lt;script>alert(1)&lt;/script> &amp; see',
      'inline `a <b> c` and ``x ` <y>`` stay',
      '```html',
      '<div class="kept">&amp;</div>',
      '```',
      'after &lt;img src=x>'
    ])
  })

  it('escapes control and bidi characters, and a lone backtick does not open code', () => {
    expect(prose('a \u001b[2J b \u202e c ` <d>')).toBe('a \\x1b[2J b \\u202e c ` &lt;d>')
  })

  it('fences a block with more backticks than it holds', () => {
    expect(fenced('a ```` b')).toEqual(['`````', 'a ```` b', '`````'])
    expect(fenced('plain', '  ')).toEqual(['  ```', '  plain', '  ```'])
  })
})
