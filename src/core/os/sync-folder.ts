// A new file's name survives a crash only once its folder is synced too: the session store calls
// this after creating a log or renaming a staged one into place.
import { closeSync, fsyncSync, openSync } from 'node:fs'

/** fsync a directory so a newly created file's entry survives a crash too. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
