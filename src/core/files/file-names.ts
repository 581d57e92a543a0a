// File names as the file system holds them: bytes. Node hands them over as UTF-8 strings and
// turns bytes that are not UTF-8 into U+FFFD, so two such names can read the same and neither
// can be opened again by that string. File history records UTF-8 names only; the others are
// shown with each bad byte written \xHH: unique, and what a shell user recognises.
import { isUtf8 } from 'node:buffer'

/** `bytes` as text, each byte that is not part of a valid UTF-8 character written \xHH. */
export function showBytes(bytes: Buffer): string {
  let shown = ''
  let at = 0
  while (at < bytes.length) {
    // A valid character is 1 to 4 bytes long; at most one length fits.
    const length = [1, 2, 3, 4].find(
      (n) => at + n <= bytes.length && isUtf8(bytes.subarray(at, at + n))
    )
    if (length === undefined) {
      shown += `\\x${(bytes[at] as number).toString(16).toUpperCase().padStart(2, '0')}`
      at += 1
    } else {
      shown += bytes.toString('utf8', at, at + length)
      at += length
    }
  }
  return shown
}
