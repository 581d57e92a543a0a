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
    expect(prose('a \u001b[2J b \u202e c ` <d>')).toBe('a \\x1b[2J b \\u202e c \\` &lt;d>')
  })

  it('keeps as code only what every viewer reads as code', () => {
    // An escaped backtick opens nothing; a fence's info string with a backtick is no fence.
    expect(prose('\\`<img>`')).toBe('\\`&lt;img>\\`')
    expect(prose('```x`y\n<script>')).toBe('\\`\\`\\`x\\`y\n&lt;script>')
    // A fence is written again at the line's start and closed where the text ends.
    expect(prose('  ```\n<b>')).toBe('```\n<b>\n```')
    // Nothing is code in a line with a pipe, nor in a bare URL's word.
    expect(prose('| `<b>` |')).toBe('| \\`&lt;b>\\` |')
    expect(prose('https://x/`<b>`')).toBe('https://x/\\`&lt;b>\\`')
  })

  it('writes images as text', () => {
    expect(prose('![a](https://x/p.png) `![b](c)`')).toBe('!\\[a](https://x/p.png) `![b](c)`')
  })

  it('fences a block with more backticks than it holds', () => {
    expect(fenced('a ```` b')).toEqual(['`````', 'a ```` b', '`````'])
    expect(fenced('plain', '  ')).toEqual(['  ```', '  plain', '  ```'])
  })
})
