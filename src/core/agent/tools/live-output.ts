// What people watch of a command while it runs: the last lines of its output, bounded, with keys
// masked (shared/mask-secrets.ts). The model gets the whole capped output once the command ends
// (bash.ts); this is only the window the transcript shows meanwhile (the tool_output event).
//
// Only finished lines are shown. A chunk can end in the middle of a key, and a key cut short
// matches no pattern, so the unfinished last line waits for its end: a newline, a carriage
// return (a progress bar redraws its line with one), or whitespace once it is long. A carriage
// return replaces the line it ends, as a terminal does, so a progress bar shows as one line.
import { maskSecrets } from '../../../shared/mask-secrets'
import { latestEvery } from '../../os/latest-every'

/** Characters of output kept for the view; older lines are let go. */
export const LIVE_OUTPUT_CHARS = 8_000
/** A line with no end yet is shown up to its last whitespace once it is this long. */
const LONG_LINE_CHARS = 1_000

export class LiveOutput {
  /** Finished lines, each with its newline. */
  private lines = ''
  /** The last line a carriage return ended: shown until the next one replaces it. */
  private redrawn = ''
  /** The line still being written: not shown (see the header). */
  private open = ''
  /** Whether earlier output was let go. */
  private cut = false

  append(text: string): void {
    const parts = (this.open + text).split(/(\r\n|\n|\r)/)
    this.open = parts.pop() ?? ''
    for (let i = 0; i < parts.length; i += 2) {
      const line = parts[i] ?? ''
      if (parts[i + 1] === '\r') {
        this.redrawn = line
      } else {
        this.lines += `${this.redrawn === '' || line !== '' ? line : this.redrawn}\n`
        this.redrawn = ''
      }
    }
    if (this.open.length > LONG_LINE_CHARS) {
      // Keys hold no whitespace: up to the last of it, nothing is a key cut short.
      const at = this.open.search(/\s\S*$/)
      if (at > 0) {
        this.lines += this.open.slice(0, at + 1)
        this.open = this.open.slice(at + 1)
      } else if (this.open.length > LIVE_OUTPUT_CHARS) {
        this.open = this.open.slice(-LONG_LINE_CHARS)
        this.cut = true
      }
    }
    this.bound()
  }

  /** The text to show: the last lines, keys masked, saying when earlier lines were let go. */
  shown(): string {
    const text = maskSecrets(this.lines + this.redrawn)
    return this.cut ? `[earlier output not shown]\n${text}` : text
  }

  /** Lets go of the oldest lines, whole, past the bound. */
  private bound(): void {
    if (this.lines.length <= LIVE_OUTPUT_CHARS) return
    const over = this.lines.length - LIVE_OUTPUT_CHARS
    const next = this.lines.indexOf('\n', over)
    this.lines = next === -1 ? '' : this.lines.slice(next + 1)
    this.cut = true
  }
}

/** How often, at most, a running command's view is sent again. */
const SHOW_EVERY_MS = 200

/**
 * A command's output as it comes, shown through `show` at most every SHOW_EVERY_MS (a command
 * printing thousands of lines a second sends five views a second). close() when it ended: its
 * result says the rest.
 */
export function watchOutput(show: (text: string) => void): {
  append(text: string): void
  close(): void
} {
  const live = new LiveOutput()
  let last = ''
  const views = latestEvery<null>(() => {
    const text = live.shown()
    if (text === last) return
    last = text
    show(text)
  }, SHOW_EVERY_MS)
  return {
    append(text) {
      live.append(text)
      views.push(null)
    },
    close: views.close
  }
}
