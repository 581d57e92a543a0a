// Narrowing parsed JSON without zod, for the load path (see the note on load-time checks in tree.ts).
export type Json = Record<string, unknown>

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export const isString = (v: unknown): v is string => typeof v === 'string'

/** The value if it is a string, else null. */
export const stringOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null)
