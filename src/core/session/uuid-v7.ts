// Version 7 uuids (RFC 9562): 48 bits of Unix time in milliseconds, then random bits. Ids made
// by this process sort in the order they were made (a counter in the 12 bits after the
// version, RFC 9562's method 1): restore journals are listed oldest first by id (journal.ts),
// session files are named with one.
//
// Ours rather than the uuid package's: a restore or a command that changed a thousand files
// makes a thousand record ids at once, in a process that has just started. The package drew its
// random bytes and formatted each id in code not yet optimized (~6 µs an id); here the bytes come
// from one pool refilled a few kilobytes at a time and each byte is formatted by table lookup.
import { randomFillSync } from 'node:crypto'

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

/** Random bytes for the next ids: 10 an id (the counter's start, and the 62 random bits). */
const pool = Buffer.allocUnsafe(10 * 256)
let poolAt = pool.length

/** The time of the last id (ms) and its counter (12 bits). */
let lastMs = -1
let counter = 0

export function uuidv7(): string {
  if (poolAt + 10 > pool.length) {
    randomFillSync(pool)
    poolAt = 0
  }
  const at = poolAt
  poolAt += 10
  const now = Date.now()
  if (now > lastMs) {
    lastMs = now
    // A random start below half the range leaves at least 2,048 ids in the millisecond.
    counter = ((pool[at] as number) << 3) | ((pool[at + 1] as number) & 0x07)
  } else if (++counter > 0xfff) {
    // More ids in one millisecond than the counter holds: borrow the next one, as the RFC allows.
    lastMs++
    counter = 0
  }
  const high = Math.floor(lastMs / 0x1_0000_0000)
  const low = lastMs >>> 0
  return (
    HEX[(high >>> 8) & 0xff]! +
    HEX[high & 0xff]! +
    HEX[low >>> 24]! +
    HEX[(low >>> 16) & 0xff]! +
    '-' +
    HEX[(low >>> 8) & 0xff]! +
    HEX[low & 0xff]! +
    '-' +
    HEX[0x70 | (counter >>> 8)]! +
    HEX[counter & 0xff]! +
    '-' +
    HEX[0x80 | ((pool[at + 2] as number) & 0x3f)]! +
    HEX[pool[at + 3] as number]! +
    '-' +
    HEX[pool[at + 4] as number]! +
    HEX[pool[at + 5] as number]! +
    HEX[pool[at + 6] as number]! +
    HEX[pool[at + 7] as number]! +
    HEX[pool[at + 8] as number]! +
    HEX[pool[at + 9] as number]!
  )
}
