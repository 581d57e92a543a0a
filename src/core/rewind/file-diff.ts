// The unified diff a preview shows for one file: current content → the content a restore gives it.
import { createTwoFilesPatch } from 'diff'
import { looksBinary } from '../files/binary-content'

/** Above this, a diff costs more than it tells: the preview lists the file without one. */
const MAX_DIFF_BYTES = 1_000_000

/** Empty when either side is binary, too big, or unknown (null content = absent file). */
export function unifiedDiff(path: string, current: Buffer | null, target: Buffer | null): string {
  const sides = [current, target].filter((c): c is Buffer => c !== null)
  if (sides.some((c) => looksBinary(c) || c.length > MAX_DIFF_BYTES)) return ''
  return createTwoFilesPatch(
    current === null ? '/dev/null' : `a/${path}`,
    target === null ? '/dev/null' : `b/${path}`,
    current?.toString('utf8') ?? '',
    target?.toString('utf8') ?? ''
  )
}
