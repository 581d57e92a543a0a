// Opening a session log bigger than V8's longest string (~512 MiB; default 1 GB): SessionStore.open
// streams the file (read in chunks, lines split on '\n', JSON.parse each), builds the tree, takes
// the writer lock, then the active path and its checkpoints. Baseline: the bare streaming parse of
// the same file (4 MiB chunks, split lines, JSON.parse each, values kept as any loader must).
// Each run is a fresh child process, so its peak memory (max RSS) is its own. Targets: time
// ratio <= 1.3, peak memory ratio <= 2. The file is generated in a temp folder and deleted.
// Run: npx tsx bench/session-open-large.ts [megabytes] [runs]
import { fileURLToPath } from 'node:url'
import type { SessionStore } from '../src/core/session/store'
import { runFreshProcessOpenBench } from './support/fresh-process-open'

function ours(Store: typeof SessionStore, file: string): number {
  const store = Store.open(file)
  const tree = store.tree()
  const path = tree.activePath()
  tree.checkpoints(path)
  tree.leaves()
  store.close()
  return path.length
}

await runFreshProcessOpenBench({
  script: fileURLToPath(import.meta.url),
  what: 'session',
  fileName: 'session.jsonl',
  defaultMegabytes: 1024,
  defaultRuns: 3,
  nodeArgs: ['--max-old-space-size=8192'],
  write: async (file, bytes) => {
    const { writeSyntheticSession } = await import('../test/session/synthetic')
    return writeSyntheticSession(file, bytes)
  },
  ours: {
    label: 'SessionStore.open + tree + active path + checkpoints + leaves',
    load: async () => {
      const { SessionStore: Store } = await import('../src/core/session/store')
      return (file) => ours(Store, file)
    }
  }
})
