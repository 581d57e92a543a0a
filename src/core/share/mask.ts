// Masking on the way out: what a push sends has every string that looks like a key masked
// (shared/mask-secrets.ts, the rule the app's views and exports use), in the records and in the
// backups, so a key the agent read from `.env`, or a `.env` it edited, stays on this machine. The
// local log and the local backups keep what was said and written.
//
// A backup is content named by its sha256: masking a text backup makes other content, named by
// another hash, and the records that named the first name the second. Binary content (a NUL
// byte, or bytes that are no UTF-8) is sent as it is: masking it would corrupt the file, and
// the patterns are for text.
//
// The redaction preview lists each masked piece: where it was, how it is shown now, a little
// context around it (masked too). It is bounded; past the list, pieces are counted.
import { maskSecrets, maskSecretsIn } from '../../shared/mask-secrets'
import { shownOneLine } from '../../shared/shown-text'
import { sha256 } from '../files/blob-store'

/** One piece the push masks, for the user to check before anything leaves the machine. */
export interface Redaction {
  /** `log line 12 (assistant)`, `backup of config/.env`. */
  where: string
  /** The piece as it is sent: `sk-ant-…(108 chars, masked)`. */
  shown: string
  /** Up to 40 characters either side of it, masked, on one line. */
  context: string
}

const MAX_LISTED = 500
const CONTEXT = 40

/** The masked form maskSecrets leaves: its kept prefix, then `…(N chars, masked)`. */
const MASKED =
  /(?:-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----|[A-Za-z0-9_]+-?(?:[a-z]+-)?)?…\(\d+ chars, masked\)/g

export class Redactions {
  readonly listed: Redaction[] = []
  /** Every piece masked, listed or not. */
  count = 0

  /** Notes the pieces `masked` holds that `original` did not. */
  add(where: string, original: string, masked: string): void {
    const before = new Map<string, number>()
    for (const m of original.matchAll(MASKED)) before.set(m[0], (before.get(m[0]) ?? 0) + 1)
    for (const m of masked.matchAll(MASKED)) {
      const seen = before.get(m[0]) ?? 0
      if (seen > 0) {
        before.set(m[0], seen - 1)
        continue
      }
      this.count++
      if (this.listed.length >= MAX_LISTED) continue
      const at = m.index
      // On one line, every control and bidi character escaped: it is shown in the app and printed.
      const context = shownOneLine(
        masked.slice(Math.max(0, at - CONTEXT), at + m[0].length + CONTEXT).replace(/\s+/g, ' ')
      )
      this.listed.push({ where: shownOneLine(where), shown: m[0], context })
    }
  }
}

/** A record as pushed: every string masked; `what` names it for the preview. */
export function maskRecord(record: unknown, where: string, redactions: Redactions): unknown {
  const masked = maskSecretsIn(record)
  if (masked !== record) redactions.add(where, JSON.stringify(record), JSON.stringify(masked))
  return masked
}

/** A backup's content as pushed: masked when it is text holding a key; null when unchanged. */
export function maskBackup(
  content: Buffer,
  where: string,
  redactions: Redactions
): { content: Buffer; hash: string } | null {
  if (content.includes(0)) return null
  const text = content.toString('utf8')
  if (!Buffer.from(text, 'utf8').equals(content)) return null
  const masked = maskSecrets(text)
  if (masked === text) return null
  redactions.add(where, text, masked)
  const out = Buffer.from(masked, 'utf8')
  return { content: out, hash: sha256(out) }
}
