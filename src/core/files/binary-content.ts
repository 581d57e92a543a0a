/** Bytes checked for a NUL when deciding whether content is binary (as git and ripgrep do). */
const BINARY_SNIFF_BYTES = 8000

export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)
}
