// Run as a child process by merge-crash.test.ts: plans a merge of another branch's files and
// applies it; once `pauseAt` files are written it says "paused" and blocks, to be SIGKILLed there.
import { realpathSync, writeSync } from 'node:fs'
import { historyPaths } from '../../src/core/files/history-paths'
import { prepareMerge, runMerge } from '../../src/core/merge/merge'
import { RewindEngine } from '../../src/core/rewind/rewind-engine'
import { restoreSpaceAt } from '../../src/core/rewind/workspace-files'
import { SessionStore } from '../../src/core/session/store'

const [file, cwd, home, fromUuid, pauseAt] = process.argv.slice(2)
if (file === undefined || cwd === undefined || home === undefined || fromUuid === undefined) {
  throw new Error('usage: merge-crash-child SESSION CWD HOME FROM PAUSE_AT')
}
const store = SessionStore.open(file)
const space = restoreSpaceAt(realpathSync(cwd), historyPaths(home, cwd).root)
const engine = new RewindEngine({
  home,
  store,
  space,
  onProgress: (done) => {
    if (done !== Number(pauseAt)) return
    writeSync(1, 'paused\n')
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000)
  }
})
const ws = { tree: () => store.tree(), leafUuid: () => store.leafUuid, engine, space }
await runMerge(ws, await prepareMerge(ws, { fromUuid, files: true }), {})
writeSync(1, 'finished\n')
