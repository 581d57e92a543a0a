// A unified diff, one coloured line per change. Long diffs are cut so a huge file cannot stall
// the dialog; the count of hidden lines is shown. Characters that reorder text are escaped: a bidi
// override in code would show it in another order than it reads.
import { memo } from 'react'
import { escapeReorderingChars } from '../../../shared/control-chars'

const MAX_LINES = 400

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff__line diff__line--file'
  if (line.startsWith('+')) return 'diff__line diff__line--add'
  if (line.startsWith('-')) return 'diff__line diff__line--del'
  if (line.startsWith('@@')) return 'diff__line diff__line--hunk'
  return 'diff__line'
}

export const DiffView = memo(function DiffView({ diff }: { diff: string }) {
  if (diff === '') return <p className="muted">No text diff (binary or unknown content).</p>
  const lines = diff.replace(/\n$/, '').split('\n')
  const shown = lines.slice(0, MAX_LINES)
  return (
    <pre className="diff">
      {shown.map((line, i) => (
        <span key={i} className={lineClass(line)}>
          {escapeReorderingChars(line)}
          {'\n'}
        </span>
      ))}
      {lines.length > MAX_LINES && (
        <span className="diff__line muted">… {lines.length - MAX_LINES} more lines</span>
      )}
    </pre>
  )
})
