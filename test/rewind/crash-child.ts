// Run as a child process by crash-recovery.test.ts: applies a big rewind and, once `pauseAt`
// files are restored, says "paused" and blocks, so the test can SIGKILL it mid-restore.
import { realpathSync, writeSync } from 'node:fs'
import { historyPaths } from '../../src/core/files/history-paths'
import { RewindEngine } from '../../src/core/rewind/rewind-engine'
import { restoreSpaceAt } from '../../src/core/rewind/workspace-files'
import { SessionStore } from '../../src/core/session/store'

const [file, cwd, home, checkpointUuid, pauseAt] = process.argv.slice(2)
if (file === undefined || cwd === undefined || home === undefined || checkpointUuid === undefined) {
  throw new Error('usage: crash-child SESSION CWD HOME CHECKPOINT PAUSE_AT')
}
const store = SessionStore.open(file)
const engine = new RewindEngine({
  home,
  store,
  space: restoreSpaceAt(realpathSync(cwd), historyPaths(home, cwd).root),
  onProgress: (done) => {
    if (done !== Number(pauseAt)) return
    writeSync(1, 'paused\n')
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000)
  }
})
await engine.rewind(checkpointUuid, 'both')
writeSync(1, 'finished\n')
