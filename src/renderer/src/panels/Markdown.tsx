// Summaries, reports and the agent's answers drawn as Markdown (markdown-it's CommonMark with
// tables), from its tokens straight into React elements: no HTML string is ever made or put in
// the page, so nothing in the text can become an element the code does not name.
//   - Raw HTML stays text (html off: markdown-it makes it a text token; React escapes it).
//   - Only the elements listed in TAGS are made; a token of any other tag keeps its text only.
//   - A link is a link only to http(s) or mailto, opened outside the app (target _blank, no
//     opener, no referrer; the desktop window hands it to the system browser); any other
//     (javascript:, data:, file:, a path) stays its written text.
//   - An image is never loaded: its alt text stands in its place, a link to it when it is http(s).
//   - Headings start at h4, under the panel's own h3.
//   - Text longer than MAX_MARKDOWN_CHARS is shown as written (pre-wrap), not parsed: the
//     parse costs the page time in proportion to it, and a transcript redraws it per token.
//     So is text nested as deep as markdown-it goes (it drops what is deeper).
// The text is masked (shared/mask-secrets.ts) before it is parsed, as it was shown before.
import MarkdownIt, { type Token } from 'markdown-it'
import { Fragment, createElement, memo, type ReactNode } from 'react'
import { shownText } from '../../../shared/shown-text'

export const MAX_MARKDOWN_CHARS = 100_000

/** markdown-it stops nesting here (and drops what is deeper): such text is shown as written. */
const MAX_NESTING = 20

const markdown = new MarkdownIt('default', {
  html: false,
  linkify: false,
  typographer: false,
  // A hostile "> > > > …" costs no deep recursion.
  maxNesting: MAX_NESTING
})
// A link to another scheme is not made a link at all: its text reads as written.
markdown.validateLink = (url) => safeHref(url) !== null

const TAGS = new Set([
  'p',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'strong',
  'em',
  's',
  'a',
  'code',
  'pre',
  'hr',
  'br'
])

const HEADINGS: Record<string, string> = { h1: 'h4', h2: 'h5', h3: 'h6', h4: 'h6', h5: 'h6' }

/** The URL when it is one a link may go to, else null. */
export function safeHref(url: string): string | null {
  return /^(https?:\/\/|mailto:)/i.test(url.trim()) ? url.trim() : null
}

interface Frame {
  tag: string | null
  props: Record<string, string>
  children: ReactNode[]
}

function openFrame(token: Token): Frame {
  const tag = HEADINGS[token.tag] ?? token.tag
  if (token.hidden || !TAGS.has(tag)) return { tag: null, props: {}, children: [] }
  if (tag === 'a') {
    const href = safeHref(attr(token, 'href'))
    return href === null
      ? { tag: null, props: {}, children: [] }
      : { tag, props: { href, target: '_blank', rel: 'noopener noreferrer' }, children: [] }
  }
  const start = attr(token, 'start')
  return { tag, props: tag === 'ol' && start !== '' ? { start } : {}, children: [] }
}

function closeFrame(frame: Frame, key: number): ReactNode {
  if (frame.tag === null) return createElement(Fragment, { key }, ...frame.children)
  return createElement(frame.tag, { ...frame.props, key }, ...frame.children)
}

function attr(token: Token, name: string): string {
  return String(token.attrGet(name) ?? '')
}

function altText(token: Token): string {
  return (token.children ?? []).map((child) => child.content).join('')
}

/** A leaf token as an element or text; null for one that shows nothing. */
function leaf(token: Token, key: number): ReactNode {
  switch (token.type) {
    case 'text':
    case 'html_inline':
    case 'html_block':
      return token.content
    case 'softbreak':
      return '\n'
    case 'hardbreak':
      return createElement('br', { key })
    case 'code_inline':
      return createElement('code', { key }, token.content)
    case 'fence':
    case 'code_block':
      return createElement('pre', { key }, createElement('code', null, token.content))
    case 'hr':
      return createElement('hr', { key })
    case 'image': {
      const label = `[image: ${altText(token) || 'no description'}]`
      const href = safeHref(attr(token, 'src'))
      return href === null
        ? label
        : createElement('a', { key, href, target: '_blank', rel: 'noopener noreferrer' }, label)
    }
    case 'inline':
      return createElement(Fragment, { key }, ...renderTokens(token.children ?? []))
    default:
      return token.content === '' ? null : token.content
  }
}

function renderTokens(tokens: readonly Token[]): ReactNode[] {
  const root: Frame = { tag: null, props: {}, children: [] }
  const stack: Frame[] = [root]
  tokens.forEach((token, key) => {
    const top = stack[stack.length - 1] as Frame
    if (token.nesting === 1) stack.push(openFrame(token))
    else if (token.nesting === -1 && stack.length > 1) {
      const done = stack.pop() as Frame
      ;(stack[stack.length - 1] as Frame).children.push(closeFrame(done, key))
    } else top.children.push(leaf(token, key))
  })
  // Unclosed frames (none from markdown-it, but never lose text): folded into the root.
  while (stack.length > 1) {
    const done = stack.pop() as Frame
    ;(stack[stack.length - 1] as Frame).children.push(closeFrame(done, tokens.length))
  }
  return root.children
}

/** The text's Markdown as React nodes (see the header for what is and is not made). */
export function markdownNodes(text: string): ReactNode {
  // Keys masked and the characters that reorder text escaped, as all text the page draws whole.
  const masked = shownText(text)
  if (masked.length > MAX_MARKDOWN_CHARS) return masked
  const tokens = markdown.parse(masked, {})
  return reachesLimit(tokens) ? masked : renderTokens(tokens)
}

/** Whether the parse got as deep as markdown-it goes, where it lets text go. */
function reachesLimit(tokens: readonly Token[]): boolean {
  return tokens.some(
    (token) => token.level >= MAX_NESTING - 1 || reachesLimit(token.children ?? [])
  )
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const nodes = markdownNodes(text)
  return <div className={typeof nodes === 'string' ? 'prose' : 'markdown'}>{nodes}</div>
})
