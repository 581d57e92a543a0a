// Run as a child process by continue-killed.test.ts, which SIGKILLs it once it says "paused":
// `continueForeign` (what `cli continue` and the app's Continue in Rewind Studio run) imports
// FILE into a new session of ours and pauses as it is about to write the record at index AT of
// the path, the records before it written.
//   node --import tsx continue-killed-child.ts HOME CWD FILE AT
import { writeSync } from 'node:fs'
import { continueForeign } from '../../src/core/session/continue-foreign'
import { readSessionFile } from '../../src/core/session/load'
import type { SessionTree, TreeRecord } from '../../src/core/session/tree'

const [home, cwd, file, at] = process.argv.slice(2)
if (home === undefined || cwd === undefined || file === undefined) {
  throw new Error('usage: HOME CWD FILE AT')
}
const pauseAt = Number(at)

function pause(): void {
  writeSync(1, 'paused\n')
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000)
}

/** The record, pausing the first time its message is read: the import is writing it. */
function pausingAt(record: TreeRecord): TreeRecord {
  let paused = false
  return new Proxy(record, {
    get(target, property, receiver) {
      if (property === 'message' && !paused) {
        paused = true
        pause()
      }
      return Reflect.get(target, property, receiver) as unknown
    }
  })
}

const loaded = readSessionFile(file)
const tree = new Proxy(loaded.tree, {
  get(target, property) {
    if (property === 'pathTo') {
      return (uuid: string | null) =>
        target.pathTo(uuid).map((r, i) => (i === pauseAt ? pausingAt(r) : r))
    }
    const value = Reflect.get(target, property, target) as unknown
    return typeof value === 'function' ? (value as () => unknown).bind(target) : value
  }
}) as SessionTree
const path = tree.pathTo(tree.leafUuid)
if (!path.slice(pauseAt).some((r) => r.type === 'user' || r.type === 'assistant')) {
  throw new Error(`no message to pause at from record ${pauseAt} of ${path.length}`)
}
continueForeign({
  home,
  cwd,
  origin: { file, format: loaded.format, sessionId: loaded.tree.header?.sessionId ?? '' },
  tree,
  at: null
})
writeSync(1, 'finished\n')
