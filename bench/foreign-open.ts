// Reading a 100 MB Claude Code transcript into the tree, in process: readSessionFile (chunked read,
// JSON.parse per line, the Claude Code mapper: message groups, chain links, file history into
// turn changes, raw records kept), then the active path, its checkpoints and the leaves. Baseline:
// the bare streaming parse of the same file (bench/support/bare-jsonl.ts). The transcript is
// generated with the records and proportions the real CLI writes (support/claude-code-transcript.ts).
// Each run is a fresh child process, so its time and peak memory (max RSS) are its own.
// Targets: time ratio <= 1.3, peak memory ratio <= 2.
// Run: npx tsx bench/foreign-open.ts [megabytes] [runs]
import { fileURLToPath } from 'node:url'
import type { readSessionFile as ReadSessionFile } from '../src/core/session/load'
import { runFreshProcessOpenBench } from './support/fresh-process-open'

function ours(read: typeof ReadSessionFile, file: string): number {
  const { tree, format } = read(file)
  if (format !== 'claude-code') throw new Error(`read as ${format}`)
  const path = tree.activePath()
  tree.checkpoints(path)
  tree.leaves()
  return path.length
}

await runFreshProcessOpenBench({
  script: fileURLToPath(import.meta.url),
  what: 'Claude Code transcript',
  fileName: '7d7a2229-dbc1-4214-af1e-e197f89a6e19.jsonl',
  defaultMegabytes: 100,
  defaultRuns: 5,
  write: async (file, bytes) => {
    const { writeClaudeCodeTranscript } = await import('./support/claude-code-transcript')
    return writeClaudeCodeTranscript(file, bytes)
  },
  ours: {
    label: 'readSessionFile + tree + active path + checkpoints + leaves',
    load: async () => {
      const { readSessionFile } = await import('../src/core/session/load')
      return (file) => ours(readSessionFile, file)
    }
  }
})
