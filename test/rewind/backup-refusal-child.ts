// Run by backup-refusal.test.ts as an unprivileged user: tries one agent write whose backup
// cannot be stored (the blob folder is read-only) and prints what happened as JSON.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FileHistory } from '../../src/core/files/file-history'
import { WriteFailedError } from '../../src/core/os/write-failure'

const [home, cwd] = process.argv.slice(2)
if (home === undefined || cwd === undefined) throw new Error('usage: backup-refusal-child HOME CWD')
const records: unknown[] = []
const history = await FileHistory.open({
  home,
  cwd,
  sessionId: 'refusal',
  log: { appendFileChanges: (c) => records.push(...c) }
})
history.beginCheckpoint('p1')
let refused: string | null = null
try {
  await history.beforeWrite(join(cwd, 'a.txt'), 'Edit', 'new content')
} catch (error) {
  refused =
    (error instanceof WriteFailedError ? error.osCode : undefined) ?? (error as Error).message
}
await history.close().catch(() => undefined)
console.log(JSON.stringify({ refused, records, content: readFileSync(join(cwd, 'a.txt'), 'utf8') }))
