// The baseline of the session-opening benchmarks: the bare streaming parse of a JSONL file (4 MiB
// chunks, lines split, JSON.parse each, the values kept as any loader must keep them).
import { closeSync, openSync, readSync } from 'node:fs'

export function bareStreamingParse(file: string): number {
  const fd = openSync(file, 'r')
  const values: unknown[] = []
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
      for (const line of text.split('\n')) if (line !== '') values.push(JSON.parse(line))
    }
    if (carry !== '') values.push(JSON.parse(carry))
  } finally {
    closeSync(fd)
  }
  return values.length
}
