// Strings that look like API keys and private keys, and the exact values of the secrets this
// process was handed (maskLiterally), masked in what the app shows (the studio's
// views, the terminal chat, `inspect`): a key the agent read from `.env` or the user pasted must
// not sit on the screen for a screen share, a screenshot or a shoulder to catch. The session log
// keeps what the user and the model said, so the model's context is unchanged; what a tool
// returns is masked before it is logged or sent (agent.ts): a key Bash found in `/proc` or a
// `.env` would otherwise stay in the session for good.
//
// A masked key keeps the prefix that names its kind and says how long it was:
// `sk-ant-…(108 chars, masked)`. The masked form matches no pattern again, so masking twice
// changes nothing. A permission prompt is never masked: the user approves exactly what runs.

interface SecretPattern {
  /** Matches the secret (a Bearer token without its word, which a lookbehind requires). */
  pattern: RegExp
  /**
   * A literal every match holds (the key's prefix): a text with none of the patterns' hints is
   * left without running them (masking an export of a long session runs it on every string).
   */
  hint: RegExp
  /** The start of the match kept in front of the mask (the key's kind); null: not a secret. */
  keep(match: string, groups: (string | undefined)[]): string | null
}

/**
 * A token that looks random: a digit, or both cases. Keeps words that merely share a prefix
 * (`sk-learn-compatible-estimator`, `Bearer authentication_header_value`) readable.
 */
function looksRandom(token: string): boolean {
  return /\d/.test(token) || (/[a-z]/.test(token) && /[A-Z]/.test(token))
}

const PATTERNS: SecretPattern[] = [
  {
    // A PEM private key, to its END line; cut off before it (a clipped tool output), as far as
    // the base64 body goes.
    pattern:
      /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----(?:[\s\S]*?-----END \1PRIVATE KEY-----|[A-Za-z0-9+/=\s:,-]*)/g,
    hint: /PRIVATE KEY-----/,
    keep: (_match, [kind]) => `-----BEGIN ${kind ?? ''}PRIVATE KEY-----`
  },
  {
    // Anthropic (sk-ant-api03-…), OpenAI (sk-…, sk-proj-…, sk-svcacct-…, sk-admin-…).
    pattern: /\bsk-(ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    hint: /sk-/,
    keep: (match, [kind]) => (looksRandom(match.slice(3)) ? `sk-${kind ?? ''}` : null)
  },
  {
    // AWS access key ids.
    pattern: /\b(AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    hint: /AKIA|ASIA|ABIA|ACCA/,
    keep: (_match, [kind]) => kind ?? ''
  },
  {
    // GitHub tokens: personal (ghp_), OAuth (gho_), user/server (ghu_, ghs_), refresh (ghr_).
    pattern: /\b(gh[pousr]_)[A-Za-z0-9]{30,}/g,
    hint: /gh[pousr]_/,
    keep: (_match, [kind]) => kind ?? ''
  },
  {
    pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g,
    hint: /github_pat_/,
    keep: () => 'github_pat_'
  },
  {
    // Slack bot, user, app and refresh tokens.
    pattern: /\b(xox[abposr]-)[A-Za-z0-9-]{10,}/g,
    hint: /xox[abposr]-/,
    keep: (_match, [kind]) => kind ?? ''
  },
  {
    // Google API keys.
    pattern: /\bAIza[0-9A-Za-z_-]{35}/g,
    hint: /AIza/,
    keep: () => 'AIza'
  },
  {
    // An HTTP bearer token (a JWT, an opaque token).
    pattern: /(?<=\bBearer\s+)[A-Za-z0-9_.~+/-]{20,}=*/gi,
    hint: /bearer/i,
    keep: (match) => (looksRandom(match) ? '' : null)
  }
]

/**
 * Any pattern's hint: a superset of where any pattern can match. Case-sensitive as the patterns
 * are (only Bearer is matched in any case, so only it is spelled in any case here): the `i` flag
 * made this one test, run on every string an export or `inspect` shows, twice as slow.
 */
const ANY_HINT = new RegExp(
  PATTERNS.map(({ pattern, hint }) =>
    pattern.flags.includes('i') ? anyCase(hint.source) : hint.source
  ).join('|')
)

/** A hint made of letters, matched in any case without the `i` flag: `ab` → `[Aa][Bb]`. */
function anyCase(letters: string): string {
  if (!/^[a-z]+$/i.test(letters)) throw new Error(`anyCase: ${letters} is not only letters`)
  return [...letters].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join('')
}

/**
 * The secrets this process was handed (its ANTHROPIC_API_KEY…, env-secrets.ts), masked wherever
 * they appear whatever they look like: a gateway's token or a test key has no shape the patterns
 * know, and the app knows its exact value. Longest first, so one holding another goes whole.
 */
const literals: string[] = []

/** Shorter values are not masked as they stand: a key of a few characters would mask words. */
const MIN_LITERAL_CHARS = 8

/** Masks each of `values` (of at least 8 characters) from now on, in this process. */
export function maskLiterally(values: Iterable<string>): void {
  for (const value of values) {
    if (value.length >= MIN_LITERAL_CHARS && !literals.includes(value)) literals.push(value)
  }
  literals.sort((a, b) => b.length - a.length)
}

/** `text` with every string that looks like a key replaced by its kind, its length and a mask. */
export function maskSecrets(text: string): string {
  let out = text
  for (const literal of literals) {
    if (out.includes(literal)) out = out.split(literal).join(`…(${literal.length} chars, masked)`)
  }
  if (!ANY_HINT.test(out)) return out
  for (const { pattern, hint, keep } of PATTERNS) {
    // A lookbehind (Bearer) is tried at every position: skip a pattern whose hint is absent.
    if (!hint.test(out)) continue
    out = out.replace(pattern, (match: string, ...rest: unknown[]) => {
      // replace() passes the groups, then the offset (a number): only the groups are wanted.
      const end = rest.findIndex((r) => typeof r === 'number')
      const groups = rest.slice(0, end) as (string | undefined)[]
      const kept = keep(match, groups)
      return kept === null ? match : `${kept}…(${match.length} chars, masked)`
    })
  }
  return out
}

/**
 * `value` (JSON-like: strings, arrays, plain objects) with maskSecrets applied to every string.
 * Copy on write: an array or object with nothing to mask in it is returned as it is (an export
 * of a long session masks megabytes of text that holds no key; copying it all cost seconds of
 * garbage collection), one with a key is a new one. Nothing is ever changed in place.
 */
export function maskSecretsIn<T>(value: T): T {
  if (typeof value === 'string') return maskSecrets(value) as T
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const masked = maskSecretsIn(item)
      if (masked !== item) copy ??= value.slice()
      if (copy !== null) copy[i] = masked
    }
    return (copy ?? value) as T
  }
  if (value !== null && typeof value === 'object') {
    let copy: Record<string, unknown> | null = null
    // Keys, not entries: no [key, value] array per property (`inspect --json` of a long session
    // walks tens of thousands of objects).
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key]
      const masked = maskSecretsIn(item)
      if (masked !== item) copy ??= { ...(value as Record<string, unknown>) }
      if (copy !== null) copy[key] = masked
    }
    return (copy ?? value) as T
  }
  return value
}
