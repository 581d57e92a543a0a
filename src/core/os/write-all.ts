import { writeSync } from 'node:fs'

/**
 * Writes all of `bytes` to `fd` (writeSync may write fewer than asked): at the file's current
 * offset, or from `position` on.
 */
export function writeAllSync(fd: number, bytes: Uint8Array, position: number | null = null): void {
  let done = 0
  while (done < bytes.length) {
    done += writeSync(
      fd,
      bytes,
      done,
      bytes.length - done,
      position === null ? null : position + done
    )
  }
}
