// "Search the session" over the graph: a query, a filter (all turns, prompts only, labelled only)
// and the results as a list; choosing one selects its node, unfolds what hides it and centres it.
import { ensureSearchIndex, jumpToNode, searchFor, searchIn } from '../actions/search'
import type { Branch } from '../graph/branches'
import { kindName } from '../graph/flow-model'
import { titleLine } from '../graph/outline'
import { snippetOf, type SearchFilter } from '../graph/search'
import { useGraphStore } from '../stores/graph-store'
import {
  selectFilter,
  selectQuery,
  selectResults,
  selectResultsOpen,
  useSearchStore
} from '../stores/search-store'

const FILTERS: { filter: SearchFilter; name: string }[] = [
  { filter: 'all', name: 'All turns' },
  { filter: 'prompts', name: 'Prompts only' },
  { filter: 'labelled', name: 'Labelled only' }
]

/** The branch a result is on, by the outline's title for it. */
function BranchOf({ branch }: { branch: Branch | undefined }) {
  if (branch === undefined) return null
  return (
    <span className="search__branch">
      {branch.holdsConversation ? 'on the active branch' : `on “${titleLine(branch)}”`}
    </span>
  )
}

function Results() {
  const query = useSearchStore(selectQuery)
  const filter = useSearchStore(selectFilter)
  const results = useSearchStore(selectResults)
  const open = useSearchStore(selectResultsOpen)
  const nodesById = useGraphStore((s) => s.nodesById)
  const facts = useGraphStore((s) => s.facts)
  const branches = useGraphStore((s) => s.branches)
  const index = useSearchStore((s) => s.index)
  if (!open || (query.trim() === '' && filter !== 'labelled')) return null
  if (results === null) return <p className="search__count">Loading the session’s text…</p>
  return (
    <div className="search__results">
      <p className="search__count" role="status">
        {results.total === 0
          ? 'No match.'
          : `${results.total} match${results.total === 1 ? '' : 'es'}${results.total > results.ids.length ? `, the first ${results.ids.length} listed` : ''}`}
      </p>
      <ul aria-label="Search results">
        {results.ids.map((id, at) => {
          const node = nodesById.get(id)
          if (node === undefined) return null
          const number = facts.get(id)?.promptNumber ?? null
          // The first results' positions in the index are the positions' first entries.
          const position = results.positions[at]
          const snippet =
            index === null || position === undefined
              ? null
              : snippetOf(index, position, results.query, results.filter)
          return (
            <li key={id}>
              <button type="button" className="search__result" onClick={() => jumpToNode(id)}>
                <span className="search__kind">
                  {kindName(node)}
                  {number !== null && number > 0 ? ` ${number}` : ''}
                </span>
                <span className="search__title">{node.title || '(empty)'}</span>
                {node.label !== null && <span className="search__label">{node.label}</span>}
                <BranchOf branch={branches.byId.get(branches.branchOf.get(id) ?? '')} />
                {snippet !== null && (
                  <span className="search__snippet">
                    {snippet.before}
                    <mark>{snippet.match}</mark>
                    {snippet.after}
                  </span>
                )}
              </button>
            </li>
          )
        })}
      </ul>
    </div>
  )
}

export function SearchBar() {
  const query = useSearchStore(selectQuery)
  const filter = useSearchStore(selectFilter)
  return (
    <div className="search" role="search">
      <div className="search__row">
        <input
          type="search"
          aria-label="Search the session"
          placeholder="Search the session"
          value={query}
          onFocus={() => {
            useSearchStore.getState().setOpen(true)
            void ensureSearchIndex()
          }}
          onChange={(event) => searchFor(event.target.value)}
          onKeyDown={(event) => {
            // Esc closes the list first, then clears the query (and never opens the rewind
            // picker while the field holds text).
            if (event.key === 'Escape' && query !== '') {
              event.preventDefault()
              const search = useSearchStore.getState()
              if (search.open) search.setOpen(false)
              else searchFor('')
            }
          }}
        />
        <select
          aria-label="Search in"
          value={filter}
          onChange={(event) => searchIn(event.target.value as SearchFilter)}
        >
          {FILTERS.map((choice) => (
            <option key={choice.filter} value={choice.filter}>
              {choice.name}
            </option>
          ))}
        </select>
      </div>
      <Results />
    </div>
  )
}
