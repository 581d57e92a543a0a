// A session that starts with records of its own (a fork, another tool's session continued here)
// appears whole or not at all: the store writes it into a hidden file beside its final name and
// renames it into place once it is durable (SessionStore.create's `fill`). A writer killed part
// way leaves only that hidden file, which no listing reads (its name is no session file's), so
// `--continue` can never open a cut copy. The next staged creation in the folder removes what a
// dead writer left: its hidden file, and the lock it took on the name it never published.
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { isProcessAlive } from '../os/process-alive'
import { lockPath } from './lock'

/** `.<session file name>.<pid>.partial`: hidden, never `*.jsonl`. */
const STAGED = /^\.(.+\.jsonl)\.(\d+)\.partial$/

/** Where this process stages the session file `file`. */
export function stagingPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.partial`)
}

/** Removes the staged files of writers that died in `dir`, with the locks they held. */
export function removeDeadStagings(dir: string): void {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    // A folder that cannot be read holds nothing this creation could clean.
    return
  }
  for (const name of names) {
    const staged = STAGED.exec(name)
    if (staged === null || isProcessAlive(Number(staged[2]))) continue
    const file = join(dir, staged[1] ?? '')
    rmSync(join(dir, name), { force: true })
    // The name was this writer's alone (a fresh uuid): a lock on it with no session is its.
    if (!existsSync(file)) rmSync(lockPath(file), { force: true })
  }
}
