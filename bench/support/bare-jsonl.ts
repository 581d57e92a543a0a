// The baseline of the session-opening benchmarks: the bare streaming parse of a JSONL file (4 MiB
// chunks, lines split, JSON.parse each), the values kept as a loader that holds every record
// must keep them; with `keep` false each value is dropped once parsed (the parse alone: what it
// costs to read the file, without the heap that holds it).
import { closeSync, openSync, readSync } from 'node:fs'

/** The number of lines parsed. */
export function bareStreamingParse(file: string, keep = true): number {
  const fd = openSync(file, 'r')
  const values: unknown[] = []
  let count = 0
  const chunk = Buffer.allocUnsafe(4 * 1024 * 1024)
  let carry = ''
  try {
    for (let position = 0; ;) {
      const n = readSync(fd, chunk, 0, chunk.length, position)
      if (n === 0) break
      position += n
      // Decoding a chunk may cut a character: a real reader splits on bytes (as ours does); the
      // baseline decodes up to the chunk's last '\n' so it pays no more than that.
      const last = chunk.lastIndexOf(10, n - 1)
      const text = carry + chunk.toString('utf8', 0, last + 1)
      carry = chunk.toString('utf8', last + 1, n)
      for (const line of text.split('\n')) {
        if (line === '') continue
        const value: unknown = JSON.parse(line)
        count++
        if (keep) values.push(value)
      }
    }
    if (carry !== '') {
      const value: unknown = JSON.parse(carry)
      count++
      if (keep) values.push(value)
    }
  } finally {
    closeSync(fd)
  }
  return count
}
