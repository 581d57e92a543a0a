// The read-before-edit table: which files the agent has seen, and as what content. Write and
// Edit of an existing file are refused unless the agent read (or wrote) it on the current
// branch and it has not changed on disk since, so the model never edits blind. The loop
// clears the table when the branch changes (a file read on an abandoned branch was never
// seen on this one); a code restore forgets the files it put back.
import { createHash } from 'node:crypto'
import { resolve } from 'node:path'

function digest(content: string): string {
  return createHash('sha256').update(content).digest('hex')
}

export class FileStateTable {
  /** Absolute path → sha256 of the content the agent last read or wrote. */
  private readonly seen = new Map<string, string>()

  markRead(abs: string, content: string): void {
    this.seen.set(resolve(abs), digest(content))
  }

  markWritten(abs: string, content: string): void {
    this.seen.set(resolve(abs), digest(content))
  }

  /** The agent read or wrote this file on the current branch. */
  canEdit(abs: string): boolean {
    return this.seen.has(resolve(abs))
  }

  /** `content` (what is on disk now) is what the agent last read or wrote. */
  isUnchanged(abs: string, content: string): boolean {
    return this.seen.get(resolve(abs)) === digest(content)
  }

  forget(abs: string): void {
    this.seen.delete(resolve(abs))
  }

  clear(): void {
    this.seen.clear()
  }
}
