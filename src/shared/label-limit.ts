// The one limit on a label (a bookmark on a node): the contract checks it, the CLI and the chat
// refuse a longer one with the same words, and the renderer's field stops at it. A label is a
// name to find a node by in the graph, the /tree listing and an export, not a note.
import * as z from 'zod'

/** The longest label, in characters (UTF-16 code units, as an input's maxLength counts them). */
export const MAX_LABEL_CHARS = 80

/** A label as the contract takes it: trimmed, not empty, at most MAX_LABEL_CHARS. */
export const LabelText = z.string().trim().min(1).max(MAX_LABEL_CHARS)

/** Why `text` cannot be a label, or null when it can (checked after trimming, as LabelText is). */
export function labelProblem(text: string): string | null {
  const trimmed = text.trim()
  if (trimmed === '') return 'A label needs some text.'
  if (trimmed.length > MAX_LABEL_CHARS) {
    return `A label is at most ${MAX_LABEL_CHARS} characters; this one has ${trimmed.length}. Nothing was changed.`
  }
  return null
}
