// "Search the session": the nodes whose prompt, answers, tool names, paths or label hold the
// query. The text comes from the main process (session:searchIndex) once per shape of the tree;
// it is lower-cased here once, so a keystroke costs one substring scan per node and no
// allocation beyond the result list (bench/ui-search.ts: 10,000 turns well under 50 ms).
import type { SearchEntry } from '../../../shared/views'

export type SearchFilter = 'all' | 'prompts' | 'labelled'

export interface SearchIndex {
  ids: readonly string[]
  /** Lower-cased prompts, by position. */
  prompts: readonly string[]
  /** Lower-cased prompt and everything else the node holds, by position. */
  texts: readonly string[]
  /** The same text as written, for the results' snippets (a prompt is at the start of each). */
  written: readonly string[]
}

export function indexForSearch(entries: readonly SearchEntry[]): SearchIndex {
  return {
    ids: entries.map((entry) => entry.nodeId),
    prompts: entries.map((entry) => entry.prompt.toLowerCase()),
    texts: entries.map((entry) => `${entry.prompt}\n${entry.text}`.toLowerCase()),
    written: entries.map((entry) => `${entry.prompt}\n${entry.text}`)
  }
}

export interface SearchResults {
  /** The first `limit` matching node ids, in graph order. */
  ids: string[]
  /** How many nodes match in all. */
  total: number
  /** Every match's position in the index: a longer query typed next looks only at these. */
  positions: number[]
  /** What these results answer, to tell whether the next query narrows them. */
  query: string
  filter: SearchFilter
}

/**
 * The nodes matching `query` (case-insensitive substring) under `filter`: every turn's text,
 * prompts only, or labelled nodes only (all of them for an empty query). Labels are matched
 * too, from the graph (`labels`: node id → label).
 */
export function searchSession(
  index: SearchIndex,
  labels: ReadonlyMap<string, string>,
  query: string,
  filter: SearchFilter,
  limit: number,
  /** The results of the query typed before, on the same index and labels: when this query
   * extends it, only its matches can match, so only they are looked at. */
  previous: SearchResults | null = null
): SearchResults {
  const needle = query.trim().toLowerCase()
  if (needle === '' && filter !== 'labelled') {
    return { ids: [], total: 0, positions: [], query: needle, filter }
  }
  const haystacks = filter === 'prompts' ? index.prompts : index.texts
  const narrows =
    previous !== null &&
    previous.filter === filter &&
    previous.query !== '' &&
    needle.startsWith(previous.query)
  const candidates = narrows ? previous.positions : null
  const count = candidates === null ? index.ids.length : candidates.length
  const ids: string[] = []
  const positions: number[] = []
  for (let k = 0; k < count; k++) {
    const i = candidates === null ? k : (candidates[k] as number)
    const id = index.ids[i] as string
    const label = labels.get(id)
    if (filter === 'labelled' && label === undefined) continue
    const hit =
      needle === '' ||
      (haystacks[i] as string).includes(needle) ||
      (filter !== 'prompts' && label !== undefined && label.toLowerCase().includes(needle))
    if (!hit) continue
    positions.push(i)
    if (ids.length < limit) ids.push(id)
  }
  return { ids, total: positions.length, positions, query: needle, filter }
}

/** Characters of context a snippet shows on each side of the match, at most. */
export const SNIPPET_CONTEXT = 48
/** A match longer than this is cut in the snippet too. */
const SNIPPET_MATCH = 80

/** A result's snippet: the match as written, and the text around it on one line. */
export interface Snippet {
  before: string
  match: string
  after: string
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ')

/**
 * Where node `position` of the index matches `query` under `filter`, with up to SNIPPET_CONTEXT
 * characters each side (`…` where cut); null when its text holds no match (a label's match).
 * Plain strings: the page draws them as text, never as markup.
 */
export function snippetOf(
  index: SearchIndex,
  position: number,
  query: string,
  filter: SearchFilter
): Snippet | null {
  const needle = query.trim().toLowerCase()
  const lower = (filter === 'prompts' ? index.prompts : index.texts)[position]
  const written = index.written[position]
  if (needle === '' || lower === undefined || written === undefined) return null
  const at = lower.indexOf(needle)
  if (at < 0) return null
  // Lower-casing can change a text's length (İ → i̇): its offsets then hold for itself only.
  const source = written.length === (index.texts[position] ?? '').length ? written : lower
  const start = Math.max(0, at - SNIPPET_CONTEXT)
  // Under "prompts only" the text ends with the prompt.
  const end = Math.min(lower.length, at + needle.length + SNIPPET_CONTEXT)
  const match = source.slice(at, at + Math.min(needle.length, SNIPPET_MATCH))
  return {
    before: (start > 0 ? '…' : '') + oneLine(source.slice(start, at)).trimStart(),
    match: oneLine(match) + (needle.length > SNIPPET_MATCH ? '…' : ''),
    after:
      oneLine(source.slice(at + needle.length, end)).trimEnd() + (end < lower.length ? '…' : '')
  }
}
