// Another program writing a session: opens FILE as its writer (holding the lock, as the CLI chat
// does) and appends a prompt for each line it reads on stdin, printing "APPENDED <uuid>" once the
// record is on disk. Prints "READY" when it holds the session; exits when stdin ends.
import { createInterface } from 'node:readline'
import { SessionStore } from '../../src/core/session/store'

const store = SessionStore.open(process.argv[2] as string)
if (store.readOnlyReason !== null) throw new Error(store.readOnlyReason)
process.stdout.write('READY\n')
for await (const line of createInterface({ input: process.stdin })) {
  const record = store.appendMessage({ role: 'user', content: line })
  process.stdout.write(`APPENDED ${record.uuid}\n`)
}
store.close()
