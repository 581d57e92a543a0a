// Text from outside (a model's command, a file's content, a session log) shown to people, in the
// terminal or on the page, with every character that could hide, rewrite or reorder what is shown
// written out as an escape instead. On a terminal: ESC and CSI (U+009B) start sequences that set
// the window title, clear the screen, move the cursor over earlier text or write the clipboard
// (OSC 52); `\r` and backspace overwrite a line. On a page and a terminal alike, the bidi
// overrides and isolates (U+202A–202E, U+2066–2069) reorder the text after them, so `rm -rf ~`
// could read as something else.
//
// A page needs less: escapeReorderingChars escapes only the characters that reorder (what the
// app's views draw of a session goes through it); exports and terminals take escapeControlChars.
//
// Newlines and tabs are kept by escapeControlChars (a command's lines show as lines; where it
// matters, the caller states the line count) and escaped by escapeControlCharsOneLine. A
// backslash is left as it is: `\x1b` in the text and an escaped ESC look the same, which hides
// nothing.

/**
 * C0 controls but \t and \n, DEL, C1 controls (U+0080–U+009F, CSI among them), the Arabic letter
 * mark, LRM/RLM, the line and paragraph separators, the bidi embeddings/overrides and isolates.
 */
/* eslint-disable no-control-regex -- finding control characters is this module's job */
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g
const UNSAFE_OR_LINE_BREAK =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g
/** The characters that reorder the text around them: ALM, LRM/RLM, embeddings/overrides, isolates. */
const REORDERING = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
/* eslint-enable no-control-regex */
/**
 * Whether a text holds anything to escape: most text holds nothing, and a replace with a function
 * costs several times a test even when it finds nothing (inspect escapes each of the 100,000
 * descriptions of a 100 MB log: bench/cli-startup.ts). Not global, so no lastIndex to reset.
 */
const HAS_UNSAFE = new RegExp(UNSAFE.source)
const HAS_UNSAFE_OR_LINE_BREAK = new RegExp(UNSAFE_OR_LINE_BREAK.source)
const HAS_REORDERING = new RegExp(REORDERING.source)

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

function escaped(char: string): string {
  const named = NAMED[char]
  if (named !== undefined) return named
  const code = char.charCodeAt(0)
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`
}

/** `text` with control and bidi characters escaped (`\x1b`, `\r`, `\u202e`); lines and tabs kept. */
export function escapeControlChars(text: string): string {
  return HAS_UNSAFE.test(text) ? text.replace(UNSAFE, escaped) : text
}

/** As escapeControlChars, with newlines and tabs escaped too: for what must stay on one line. */
export function escapeControlCharsOneLine(text: string): string {
  return HAS_UNSAFE_OR_LINE_BREAK.test(text) ? text.replace(UNSAFE_OR_LINE_BREAK, escaped) : text
}

/**
 * `text` as a page shows it: the characters that reorder text escaped (`\u202e`), the rest kept.
 * A page draws no control sequence and a `\r` moves nothing, so those stay as they are (a file
 * with Windows line ends is not shown with `\r` on every line); a bidi override does reorder
 * what follows it. Inside JSON text the escape means the same character, so JSON stays valid.
 */
export function escapeReorderingChars(text: string): string {
  return HAS_REORDERING.test(text) ? text.replace(REORDERING, escaped) : text
}

/**
 * JSON text safe to print: JSON.stringify escapes C0 controls already, but writes DEL, C1 and the
 * bidi characters raw. They can only stand inside strings, where `\uXXXX` means the same.
 */
export function escapeControlCharsInJson(json: string): string {
  return json.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
