import { randomBytes, timingSafeEqual } from 'node:crypto'

/** A fresh secret per run: whoever holds it may drive the agent, so it is long and random. */
export function newToken(): string {
  return randomBytes(24).toString('base64url')
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}
