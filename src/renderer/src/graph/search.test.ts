import { describe, expect, it } from 'vitest'
import { indexForSearch, searchSession, SNIPPET_CONTEXT, snippetOf } from './search'

const index = indexForSearch([
  { nodeId: 'p1', prompt: 'Add TIMEOUT to config.py', text: 'Edit\nconfig.py\nAdded it.' },
  { nodeId: 'p2', prompt: 'remove DEBUG', text: 'Write\nutils.py\nDEBUG is gone.' },
  { nodeId: 'r1', prompt: '', text: 'All settings live in config.py' }
])
const labels = new Map([['p2', 'Works well']])

describe('searchSession', () => {
  it('finds a query in prompts, answers, tool names and paths, whatever its case', () => {
    expect(searchSession(index, labels, 'CONFIG.PY', 'all', 10).ids).toEqual(['p1', 'r1'])
    expect(searchSession(index, labels, 'write', 'all', 10).ids).toEqual(['p2'])
    expect(searchSession(index, labels, 'utils', 'all', 10).ids).toEqual(['p2'])
  })

  it('finds labels, and lists every labelled node for an empty query under "labelled only"', () => {
    expect(searchSession(index, labels, 'works', 'all', 10).ids).toEqual(['p2'])
    expect(searchSession(index, labels, '', 'labelled', 10).ids).toEqual(['p2'])
    expect(searchSession(index, labels, 'config', 'labelled', 10).ids).toEqual([])
  })

  it('looks only at prompts under "prompts only"', () => {
    expect(searchSession(index, labels, 'config.py', 'prompts', 10).ids).toEqual(['p1'])
    expect(searchSession(index, labels, 'gone', 'prompts', 10).ids).toEqual([])
  })

  it('lists at most `limit` results but counts them all; an empty query finds nothing', () => {
    expect(searchSession(index, labels, 'e', 'all', 2)).toMatchObject({
      ids: ['p1', 'p2'],
      total: 3
    })
    expect(searchSession(index, labels, '  ', 'all', 10)).toMatchObject({ ids: [], total: 0 })
  })

  it('narrows the previous results when the query grows, and starts over when it does not', () => {
    const first = searchSession(index, labels, 'con', 'all', 10)
    expect(first.ids).toEqual(['p1', 'r1'])
    const narrowed = searchSession(index, labels, 'config', 'all', 10, first)
    expect(narrowed.ids).toEqual(['p1', 'r1'])
    // "utils" does not extend "con": the whole index again.
    expect(searchSession(index, labels, 'utils', 'all', 10, narrowed).ids).toEqual(['p2'])
    // Another filter: the whole index again.
    expect(searchSession(index, labels, 'config.py', 'prompts', 10, first).ids).toEqual(['p1'])
  })
})

describe('snippetOf', () => {
  const long = indexForSearch([
    {
      nodeId: 'a',
      prompt: 'look at the logs',
      text: `${'x'.repeat(200)}\n\nThe <b>TIMEOUT</b>\nwas   raised here. ${'y'.repeat(200)}`
    },
    { nodeId: 'b', prompt: 'İstanbul timeout', text: 'none' }
  ])

  it('shows the match as written, with bounded context on one line, cut with …', () => {
    const snippet = snippetOf(long, 0, 'timeout', 'all')!
    expect(snippet.match).toBe('TIMEOUT')
    expect(snippet.before.startsWith('…')).toBe(true)
    expect(snippet.before.endsWith('The <b>')).toBe(true)
    expect(snippet.after.startsWith('</b> was raised here.')).toBe(true)
    expect(snippet.after.endsWith('…')).toBe(true)
    expect(snippet.before.length).toBeLessThanOrEqual(SNIPPET_CONTEXT + 1)
    expect(snippet.after.length).toBeLessThanOrEqual(SNIPPET_CONTEXT + 1)
  })

  it('looks in the prompt only under "prompts only"; none where only a label matched', () => {
    expect(snippetOf(long, 0, 'logs', 'prompts')).toEqual({
      before: 'look at the ',
      match: 'logs',
      after: ''
    })
    expect(snippetOf(long, 0, 'timeout', 'prompts')).toBeNull()
    expect(snippetOf(index, 1, 'works', 'all')).toBeNull()
  })

  it('keeps to the lower-cased text where lower-casing changed its length', () => {
    expect(snippetOf(long, 1, 'TIMEOUT', 'all')?.match).toBe('timeout')
  })
})
