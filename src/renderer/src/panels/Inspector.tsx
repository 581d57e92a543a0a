// The selected node in full: its prompt, the answer, tool calls, files changed with their diffs,
// the git commits made during the turn, the tokens its requests took, and for a branch summary,
// a compaction or a rewind report the whole text with when it was started and rewound (and the
// files the summarized part read and modified). Last, folded, its records as the log holds them
// (another tool's unknown records among them).
import { escapeReorderingChars } from '../../../shared/control-chars'
import { shownText } from '../../../shared/shown-text'
import type { NodeDetail } from '../../../shared/views'
import { isRunNode } from '../graph/run-nodes'
import { useGraphStore } from '../stores/graph-store'
import { selectDetail, useInspectorStore } from '../stores/inspector-store'
import { toBlockViews, type BlockView } from '../stores/transcript-model'
import { FileDiffList } from './FileDiffList'
import { Markdown } from './Markdown'

function formatTime(timestamp: string | null): string {
  if (timestamp === null) return 'unknown'
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? timestamp : date.toLocaleString()
}

const count = new Intl.NumberFormat('en-US')

/** The API's usage summed over the turn's answers; the context is its last request's. */
function Tokens({ usage }: { usage: NonNullable<NodeDetail['usage']> }) {
  const requests = `${usage.requests} request${usage.requests === 1 ? '' : 's'}`
  return (
    <section aria-label="Tokens">
      <h3>Tokens</h3>
      <p>
        {requests} · input {count.format(usage.inputTokens)} · cache read{' '}
        {count.format(usage.cacheReadTokens)} · cache write{' '}
        {count.format(usage.cacheCreationTokens)} · output {count.format(usage.outputTokens)}
      </p>
      <p className="muted">
        Context of the last request: {count.format(usage.contextTokens)} tokens
      </p>
    </section>
  )
}

const SUMMARY_TITLES: Partial<Record<NodeDetail['node']['kind'], string>> = {
  rewind_report: 'Rewind report',
  compaction: 'Compaction',
  branch_summary: 'Summary'
}

/** The git commits made during the turn (HEAD before and after it), each marked when not here. */
function Commits({ commits }: { commits: NonNullable<NodeDetail['commits']> }) {
  return (
    <section aria-label="Commits">
      <h3>Commits made in this turn ({commits.length})</h3>
      <ul>
        {commits.map((c) => (
          <li key={c.oid}>
            <code title={c.oid}>{c.oid.slice(0, 12)}</code> {c.subject || '(no subject)'}{' '}
            <span className="muted">
              {c.author} · {formatTime(c.date)}
              {!c.here && ' · not in this repository (fetch it to look at it)'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}

function SummaryFiles({ summary }: { summary: NonNullable<NodeDetail['summary']> }) {
  const read = summary.readFiles ?? []
  const modified = summary.modifiedFiles ?? []
  if (read.length === 0 && modified.length === 0) return null
  return (
    <p className="muted">
      {read.length > 0 && `Read: ${read.join(', ')}`}
      {read.length > 0 && modified.length > 0 && ' · '}
      {modified.length > 0 && `Modified: ${modified.join(', ')}`}
    </p>
  )
}

function textOf(blocks: readonly BlockView[]): string {
  return blocks
    .flatMap((block) => (block.kind === 'text' ? [block.text] : []))
    .join('\n')
    .trim()
}

function DetailBody({ detail }: { detail: NodeDetail }) {
  const entries = detail.entries.map((entry) => ({ entry, blocks: toBlockViews(entry.content) }))
  const prompt = entries.find(({ entry }) => entry.isPrompt)
  const answers = entries.filter(({ entry }) => entry.role === 'assistant')
  const answerText = answers.map(({ blocks }) => textOf(blocks)).filter((t) => t !== '')
  const toolCalls = answers.flatMap(({ blocks }) => blocks.filter((b) => b.kind === 'tool'))
  const results = new Map(
    entries.flatMap(({ blocks }) =>
      blocks.flatMap((b) => (b.kind === 'tool_result' ? [[b.toolUseId, b] as const] : []))
    )
  )
  const { node } = detail
  return (
    // Focusable, so the keyboard scrolls it.
    <div className="inspector__body" tabIndex={0} role="region" aria-label="Node details">
      <p className="muted">
        {formatTime(node.timestamp)} ·{' '}
        {node.onActivePath ? 'on the active path' : 'abandoned branch'}
        {node.label !== null && ` · label ${node.label}`}
      </p>
      {detail.summary !== null && (
        <section aria-label="Report">
          <h3>{SUMMARY_TITLES[node.kind] ?? 'Summary'}</h3>
          <p className="muted">
            {detail.summary.startedAt === null
              ? `Written ${formatTime(detail.summary.rewoundAt)}`
              : `Started ${formatTime(detail.summary.startedAt)} · rewound ${formatTime(detail.summary.rewoundAt)}`}
          </p>
          <SummaryFiles summary={detail.summary} />
          {detail.summary.keptFrom != null && (
            <p className="muted">
              The model sees this summary in place of everything before “
              {detail.summary.keptFrom.title || '(empty)'}”; from there on, the turns are sent word
              for word.
            </p>
          )}
          <Markdown text={detail.summary.text} />
        </section>
      )}
      {prompt !== undefined && (
        <section aria-label="Prompt">
          <h3>Prompt</h3>
          <div className="prose">{shownText(textOf(prompt.blocks))}</div>
        </section>
      )}
      {answerText.length > 0 && (
        <section aria-label="Answer">
          <h3>Answer</h3>
          <Markdown text={answerText.join('\n\n')} />
        </section>
      )}
      {toolCalls.length > 0 && (
        <section aria-label="Tool calls">
          <h3>Tool calls ({toolCalls.length})</h3>
          <ul className="file-list">
            {toolCalls.map((call) => {
              if (call.kind !== 'tool') return null
              const result = results.get(call.toolUseId)
              return (
                <li key={call.toolUseId}>
                  <details>
                    <summary>
                      {call.name}
                      {result?.isError === true && <span className="warning-chip">failed</span>}
                    </summary>
                    <pre>{call.inputText}</pre>
                    {result !== undefined && <pre>{result.text}</pre>}
                  </details>
                </li>
              )
            })}
          </ul>
        </section>
      )}
      {detail.usage !== null && <Tokens usage={detail.usage} />}
      {node.kind === 'turn' && (
        <section aria-label="Files changed">
          <h3>Files changed ({detail.files.length})</h3>
          {detail.files.length === 0 && <p className="muted">This turn changed no files.</p>}
          <FileDiffList files={detail.files} />
        </section>
      )}
      {(detail.commits?.length ?? 0) > 0 && <Commits commits={detail.commits ?? []} />}
      {detail.raw.length > 0 && (
        <section aria-label="Records">
          <details>
            <summary>Records as logged ({detail.raw.length})</summary>
            <ul className="file-list">
              {detail.raw.map(({ line, record }, i) => (
                <li key={i}>
                  {line !== null && <span className="muted">line {line}</span>}
                  <pre>{escapeReorderingChars(JSON.stringify(record, null, 2))}</pre>
                </li>
              ))}
            </ul>
          </details>
        </section>
      )}
    </div>
  )
}

export function Inspector() {
  const detail = useInspectorStore(selectDetail)
  const runSelected = useGraphStore((s) => isRunNode(s.selectedId))
  switch (detail.state) {
    case 'empty':
      return (
        <p className="muted panel-pad">
          {runSelected
            ? 'This parallel run is still going: its turns show here once it ends. Compare runs… shows its figures.'
            : 'Select a node in the graph.'}
        </p>
      )
    case 'loading':
      return <p className="muted panel-pad">Loading…</p>
    case 'failed':
      return (
        <p role="alert" className="callout callout--error">
          Could not load this node: {detail.message}
        </p>
      )
    case 'ready':
      return <DetailBody detail={detail.detail} />
  }
}
