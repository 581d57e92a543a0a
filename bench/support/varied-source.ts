// A workspace of varied, real source for the benches: the text files of this repository's own
// node_modules (JavaScript, TypeScript, JSON, Markdown, CSS, …; no source maps), in path order,
// each cut at line ends into pieces of at most 10 KB so that 20,000 files come to ~100 MB, as in a
// big real project. Varied as real code is: a new file shares little with the one before it, which
// is what a first checkpoint meets (near-identical generated files flatter any delta search).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, extname, join, relative } from 'node:path'

const TEXT = /\.(js|mjs|cjs|ts|mts|cts|tsx|jsx|json|md|css|txt|yml|yaml|html)$/
const PIECE_BYTES = 10_240

/** The repository's node_modules text files, sorted (the same set on every machine with the lockfile). */
function sourceFiles(root: string): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1
    )
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && TEXT.test(entry.name)) found.push(path)
    }
  }
  walk(root)
  return found
}

/** Pieces of `text` of at most PIECE_BYTES, cut after a newline where there is one. */
function pieces(text: Buffer): Buffer[] {
  const out: Buffer[] = []
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE_BYTES)
    if (end < text.length) {
      const newline = text.lastIndexOf(10, end - 1)
      if (newline > start) end = newline + 1
    }
    out.push(text.subarray(start, end))
    start = end
  }
  return out
}

/**
 * Writes `count` files of varied source under `dir` (folders as in node_modules, with
 * "node_modules" in a path renamed so no ignore rule applies to it). Returns the bytes written.
 */
export function writeVariedSource(dir: string, count: number): { files: number; bytes: number } {
  const modules = join(import.meta.dirname, '..', '..', 'node_modules')
  let files = 0
  let bytes = 0
  for (const source of sourceFiles(modules)) {
    const rel = relative(modules, source).replaceAll('node_modules', 'nm')
    const ext = extname(rel)
    const parts = pieces(readFileSync(source))
    for (const [k, part] of parts.entries()) {
      if (files === count) return { files, bytes }
      const target = join(
        dir,
        'src',
        parts.length === 1 ? rel : `${rel.slice(0, -ext.length)}.${k}${ext}`
      )
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, part)
      files++
      bytes += part.length
    }
  }
  if (files < count) throw new Error(`node_modules holds only ${files} pieces of text`)
  return { files, bytes }
}
