// A separate process for the lock test: opens a session as its writer, then gets stuck in a read
// that never returns (a FIFO with no writer, read on a libuv thread) and, on SIGTERM, exits the
// way the serve host does once its shutdown deadline passes. Prints "WRITING <session file>"
// when the read is under way. Usage: stuck-writer.ts HOME CWD FIFO
import { readFile } from 'node:fs'
import { SessionStore } from '../../src/core/session/store'

const [home, cwd, fifo] = process.argv.slice(2)
if (home === undefined || cwd === undefined || fifo === undefined) {
  console.error('usage: stuck-writer.ts HOME CWD FIFO')
  process.exit(2)
}
const store = SessionStore.create({ home, cwd })
readFile(fifo, () => {})
process.once('SIGTERM', () => process.exit(1))
process.stdout.write(`WRITING ${store.file}\n`)
