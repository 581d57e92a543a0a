// Run as a child process by batch-crash.test.ts, which SIGKILLs it once it says "paused":
//   after-blobs: a command changed FILES files; the detection has written their new versions
//     (one unsettled pack, committed) and pauses where the file_change records are appended.
//   mid-batch: a batch of raw new versions is being written (its pack still a temp file) and
//     pauses before its commit.
//   node --import tsx batch-crash-child.ts HOME CWD after-blobs|mid-batch
import { execFileSync } from 'node:child_process'
import { writeSync } from 'node:fs'
import { FileHistory, type FileChange } from '../../src/core/files/file-history'
import { historyPaths } from '../../src/core/files/history-paths'
import { BlobStore } from '../../src/core/files/blob-store'
import { SessionStore } from '../../src/core/session/store'

const [home, cwd, mode] = process.argv.slice(2)
if (home === undefined || cwd === undefined) throw new Error('usage: HOME CWD MODE')

function pause(): void {
  writeSync(1, 'paused\n')
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000)
}

if (mode === 'mid-batch') {
  const blobs = new BlobStore(historyPaths(home, cwd).blobs)
  const batch = blobs.openBatch()
  for (let i = 0; i < 100; i++) {
    const previous = blobs.put(Buffer.from(`old ${i}\n`.repeat(50)))
    batch.put(Buffer.from(`new ${i}\n`.repeat(50)), { previous })
  }
  pause()
  batch.commit()
} else {
  const store = SessionStore.create({ home, cwd })
  const log = {
    appendFileChanges(changes: readonly FileChange[]) {
      pause()
      return store.appendFileChanges(changes)
    }
  }
  const history = await FileHistory.open({ home, cwd, sessionId: store.sessionId, log })
  history.beginCheckpoint(store.appendMessage({ role: 'user', content: 'edit them all' }).uuid)
  await history.prepareForCommands()
  await history.beforeCommand('Bash')
  execFileSync('sh', ['-c', `for f in f*.txt; do echo edited >> "$f"; done`], { cwd })
  await history.afterCommand('Bash')
}
writeSync(1, 'finished\n')
