// Keeping one record under MAX_PERSIST_CHARS of text. A huge tool output (a 50 MB log cat'ed by
// Bash) must not bloat the session or the next open, but dropping it silently would leave the
// model and the user guessing: the cut text ends with a notice saying how much was left out.
import { MAX_PROMPT_BYTES } from '../../shared/prompt-limit'
import { isObject, isString } from './json'

/**
 * Longest text kept in one record; longer content is cut with a visible notice. A prompt the
 * contract accepts is stored whole: MAX_PROMPT_BYTES of UTF-8 are at most as many characters.
 */
export const MAX_PERSIST_CHARS = MAX_PROMPT_BYTES

/** Identifiers, not content: never cut (a cut signature or tool id breaks the next request). */
const KEPT_KEYS = new Set(['type', 'id', 'tool_use_id', 'name', 'signature', 'media_type'])
/** Blocks whose text can be cut and still make sense; any other block is replaced whole. */
const TEXTUAL_BLOCKS = new Set(['text', 'thinking', 'tool_use', 'tool_result'])

/** What a cut string ends with, saying how much of how much was left out (`max`: the limit). */
export type CutNotice = (dropped: number, total: number, max: number) => string

const truncationNotice: CutNotice = (dropped, total, max) =>
  `\n\n[Rewind Studio truncated this record: ${dropped} of ${total} characters were not saved (limit ${max} characters per record)]`

/** Characters of content text in a value (identifier fields excluded). */
export function textSize(value: unknown, key = ''): number {
  if (typeof value === 'string') return KEPT_KEYS.has(key) ? 0 : value.length
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + textSize(v), 0)
  if (typeof value === 'object' && value !== null) {
    let n = 0
    for (const [k, v] of Object.entries(value)) n += textSize(v, k)
    return n
  }
  return 0
}

/** A record's fields as they are saved: limitText to MAX_PERSIST_CHARS. */
export function limitPersistedText<T>(value: T, max = MAX_PERSIST_CHARS): T {
  return limitText(value, max, truncationNotice)
}

/**
 * The fields of one record, cut so their text totals at most `max` characters. Returns the same
 * object when it fits (the common case: no copy). Text is kept in order until the budget runs out;
 * the string where it runs out ends with the notice, later strings become the notice alone.
 * `wholeBlocks`: a non-text block (an image) that does not fit is replaced by a text block saying
 * so, as a record saved must (a cut base64 is garbage to the model); a view, which only names such
 * a block, has its strings cut like any other.
 */
export function limitText<T>(value: T, max: number, notice: CutNotice, wholeBlocks = true): T {
  const total = textSize(value)
  if (total <= max) return value
  let budget = max
  const cut = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') {
      if (KEPT_KEYS.has(key) || v.length <= budget) {
        if (!KEPT_KEYS.has(key)) budget -= v.length
        return v
      }
      const kept = v.slice(0, budget)
      budget = 0
      return kept + notice(v.length - kept.length, total, max)
    }
    if (Array.isArray(v)) return v.map((item) => cut(item, ''))
    if (typeof v === 'object' && v !== null) {
      const type = (v as { type?: unknown }).type
      const size = textSize(v)
      if (wholeBlocks && typeof type === 'string' && !TEXTUAL_BLOCKS.has(type) && size > budget) {
        // An image or document cut mid-base64 is garbage: say what was dropped instead.
        return {
          type: 'text',
          text: `[Rewind Studio dropped a ${type} block of ${size} characters: over the limit of ${max} characters per record]`
        }
      }
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, cut(item, k)]))
    }
    return v
  }
  // The copy has the same shape as the input: only string values changed, or a non-text block
  // became a text block, which every content union accepts.
  return cut(value, '') as T
}

/** What a structure cut by limitEntries holds in place of the `dropped` entries it left out. */
export type EntriesNotice = (dropped: number) => string

/**
 * Keys a cut object keeps past the budget: the identifiers, and what a content block needs to
 * stay one (shared/messages.ts), each itself cut.
 */
const NEEDED_KEYS = new Set([
  ...KEPT_KEYS,
  'text',
  'thinking',
  'data',
  'input',
  'content',
  'source',
  'is_error'
])
/** Longer keys are cut: no real field is named with more, a hostile one by megabytes. */
const MAX_KEY_CHARS = 200

/**
 * A value with at most `max` array items and object entries in all (limitText bounds its text,
 * not its shape: a tool input of 200,000 numbers has no text), and no key longer than
 * MAX_KEY_CHARS. The same object when it fits. Past the budget an array keeps the items before
 * and ends with the notice (as a text block when it holds blocks, so a content array stays
 * one); an object keeps its NEEDED_KEYS, each cut alike, and puts the notice under `…`.
 */
export function limitEntries<T>(value: T, max: number, notice: EntriesNotice): T {
  if (fitsEntries(value, max)) return value
  let budget = max
  const cut = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const out: unknown[] = []
      for (let i = 0; i < v.length; i++) {
        if (budget <= 0) {
          const text = notice(v.length - i)
          out.push(isBlock(v[0]) ? { type: 'text', text } : text)
          break
        }
        budget--
        out.push(cut(v[i]))
      }
      return out
    }
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {}
      let dropped = 0
      for (const [key, item] of Object.entries(v)) {
        if (budget > 0) {
          budget--
          out[key.length > MAX_KEY_CHARS ? `${key.slice(0, MAX_KEY_CHARS)}…` : key] = cut(item)
        } else if (NEEDED_KEYS.has(key)) out[key] = cut(item)
        else dropped++
      }
      if (dropped > 0) out['…'] = notice(dropped)
      return out
    }
    return v
  }
  return cut(value) as T
}

/** Whether `value` has at most `max` entries and no key over MAX_KEY_CHARS (stops when not). */
function fitsEntries(value: unknown, max: number): boolean {
  let left = max
  const walk = (v: unknown): boolean => {
    if (Array.isArray(v)) {
      left -= v.length
      return left >= 0 && v.every(walk)
    }
    if (typeof v === 'object' && v !== null) {
      for (const key in v) {
        if (--left < 0 || key.length > MAX_KEY_CHARS) return false
        if (!walk((v as Record<string, unknown>)[key])) return false
      }
    }
    return true
  }
  return walk(value)
}

function isBlock(value: unknown): boolean {
  return isObject(value) && isString(value.type)
}
