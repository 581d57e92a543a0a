// The unified diff a preview or a compare shows for one file: one content → another. The hunks
// come from line-diff.ts (fast on the thousand-file sets a restore or a compare diffs); jsdiff
// writes the text.
import { formatPatch } from 'diff'
import { looksBinary } from '../files/binary-content'
import { lineHunks } from './line-diff'

/** Above this, a diff costs more than it tells: the preview lists the file without one. */
const MAX_DIFF_BYTES = 1_000_000

/** Empty when either side is binary, too big, or unknown (null content = absent file). */
export function unifiedDiff(path: string, current: Buffer | null, target: Buffer | null): string {
  const sides = [current, target].filter((c): c is Buffer => c !== null)
  if (sides.some((c) => looksBinary(c) || c.length > MAX_DIFF_BYTES)) return ''
  return formatPatch({
    oldFileName: current === null ? '/dev/null' : `a/${path}`,
    newFileName: target === null ? '/dev/null' : `b/${path}`,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: lineHunks(current?.toString('utf8') ?? '', target?.toString('utf8') ?? '')
  })
}
