// Run as a child by parallel-crash.test.ts: adopts a run and, once `pauseAt` files are written,
// says "paused" and blocks, so the test can SIGKILL it mid-adopt.
import { writeSync } from 'node:fs'
import { sessionHistoryPaths } from '../../src/core/files/history-paths'
import { applyAdopt, planAdopt } from '../../src/core/parallel/adopt'
import { restoreSpaceAt } from '../../src/core/rewind/workspace-files'
import { SessionStore } from '../../src/core/session/store'

const [file, home, run, pauseAt] = process.argv.slice(2)
if (file === undefined || home === undefined || run === undefined) {
  throw new Error('usage: adopt-crash-child SESSION HOME RUN PAUSE_AT')
}
const session = SessionStore.open(file)
const adopt = await planAdopt({
  home,
  session,
  space: restoreSpaceAt(session.cwd, sessionHistoryPaths(home, file, session.cwd).root),
  run,
  dryRun: false,
  onProgress: (done) => {
    if (done !== Number(pauseAt)) return
    writeSync(1, 'paused\n')
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000)
  }
})
await applyAdopt(home, adopt)
writeSync(1, 'finished\n')
