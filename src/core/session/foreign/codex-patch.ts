// The files a Codex CLI `apply_patch` call changes, read from the call as its rollout holds it, so
// the Codex reader (codex.ts) can say which files each turn changed. Codex keeps no copy of them:
// this names paths, never content.
//
// The patch format is Codex's own (openai/codex, codex-rs/apply-patch/src/parser.rs, lenient mode):
//   *** Begin Patch
//   *** Add File: <path>            then `+` lines
//   *** Delete File: <path>
//   *** Update File: <path>         optionally `*** Move to: <path>`, then chunks (`@@ ctx`, lines
//                                   starting ` `, `+`, `-`, or empty; `*** End of File`)
//   *** End Patch
// with its markers' padding allowed, and the whole text possibly wrapped in a `<<'EOF'` heredoc.
// Codex applies nothing of a patch it cannot parse, so a patch this parser rejects names no file.
// A call carries the patch in one of the ways invocation.rs accepts (patchOfCall).
//
// Hostile input (the rollout is another program's file) is bounded and never throws: a patch
// past MAX_PATCH_CHARS or naming more than MAX_PATCH_FILES files names none, and a path that is
// absolute outside the session's cwd, or climbs out of it with `..`, is left out.
import { isAbsolute, join, normalize, relative, sep } from 'node:path'
import { isObject, stringOrNull } from '../json'
import type { FileChangeAction } from '../records'

/** One file a patch changes, relative to the session's cwd (forward slashes). */
export interface PatchedFile {
  path: string
  action: FileChangeAction
}

/** One hunk as the patch names it, paths as written. */
export interface PatchHunk {
  op: 'add' | 'delete' | 'update'
  path: string
  /** An update's `*** Move to:` path, else null. */
  moveTo: string | null
}

/** The longest patch text read (a rollout line holding more is no patch worth naming). */
export const MAX_PATCH_CHARS = 16 * 1024 * 1024
/** The most hunks a patch is read for. */
export const MAX_PATCH_FILES = 2000

const BEGIN = '*** Begin Patch'
const END = '*** End Patch'
const ADD = '*** Add File: '
const DELETE = '*** Delete File: '
const UPDATE = '*** Update File: '
const MOVE_TO = '*** Move to: '
const END_OF_FILE = '*** End of File'
const HEREDOC_START = new Set(['<<EOF', "<<'EOF'", '<<"EOF"'])

/** The hunks of a patch text, or null when Codex would reject it (and so apply nothing). */
export function parsePatch(text: string): PatchHunk[] | null {
  if (text.length > MAX_PATCH_CHARS) return null
  const body = patchBody(text.trim().split(/\r?\n/))
  if (body === null) return null
  const hunks: PatchHunk[] = []
  for (let at = 0; at < body.length;) {
    const parsed = hunkAt(body, at)
    if (parsed === null || hunks.length >= MAX_PATCH_FILES) return null
    hunks.push(parsed.hunk)
    at = parsed.next
  }
  return hunks
}

/** The lines between the patch's markers (a heredoc's first and last stripped), or null. */
function patchBody(lines: readonly string[]): readonly string[] | null {
  const bounded = (ls: readonly string[]) =>
    ls.length >= 2 && ls[0]?.trim() === BEGIN && ls[ls.length - 1]?.trim() === END
      ? ls.slice(1, -1)
      : null
  const strict = bounded(lines)
  if (strict !== null) return strict
  const first = lines[0] ?? ''
  const last = lines[lines.length - 1] ?? ''
  return lines.length >= 4 && HEREDOC_START.has(first) && last.endsWith('EOF')
    ? bounded(lines.slice(1, -1))
    : null
}

/** The hunk starting at `at` and the index after it, or null for an invalid one. */
function hunkAt(lines: readonly string[], at: number): { hunk: PatchHunk; next: number } | null {
  const header = (lines[at] ?? '').trim()
  if (header.startsWith(ADD)) {
    let next = at + 1
    while (next < lines.length && (lines[next] ?? '').startsWith('+')) next++
    return { hunk: { op: 'add', path: header.slice(ADD.length), moveTo: null }, next }
  }
  if (header.startsWith(DELETE)) {
    return { hunk: { op: 'delete', path: header.slice(DELETE.length), moveTo: null }, next: at + 1 }
  }
  if (!header.startsWith(UPDATE)) return null
  // The move line is matched unpadded, as Codex matches it.
  const moveLine = lines[at + 1] ?? ''
  const moveTo = moveLine.startsWith(MOVE_TO) ? moveLine.slice(MOVE_TO.length) : null
  let next = moveTo === null ? at + 1 : at + 2
  let chunks = 0
  while (next < lines.length) {
    const line = lines[next] ?? ''
    if (line.trim() === '') {
      next++
      continue
    }
    if (line.startsWith('*')) break
    const end = chunkEnd(lines, next, chunks === 0)
    if (end === null) return null
    next = end
    chunks++
  }
  if (chunks === 0) return null
  return {
    hunk: { op: 'update', path: header.slice(UPDATE.length), moveTo },
    next
  }
}

/** The index after an update chunk starting at `at` (Codex's parse_update_file_chunk), or null. */
function chunkEnd(lines: readonly string[], at: number, first: boolean): number | null {
  const opener = lines[at] ?? ''
  const start = opener === '@@' || opener.startsWith('@@ ') ? at + 1 : first ? at : null
  if (start === null || start >= lines.length) return null
  let next = start
  for (; next < lines.length; next++) {
    const line = lines[next] ?? ''
    if (line === END_OF_FILE) return next === start ? null : next + 1
    const mark = line[0]
    if (mark !== undefined && mark !== ' ' && mark !== '+' && mark !== '-') {
      return next === start ? null : next
    }
  }
  return next
}

/**
 * The files a patch changes, relative to `cwd` (the session's, absolute), its paths resolved as
 * Codex resolves them: against `workdir` (a call's own, relative to cwd or absolute) when given.
 * A path outside cwd is left out; a malformed patch names none.
 */
export function patchedFiles(text: string, cwd: string, workdir: string | null): PatchedFile[] {
  const hunks = parsePatch(text)
  if (hunks === null || !isAbsolute(cwd)) return []
  const base = workdir === null || workdir === '' ? cwd : resolvedIn(cwd, workdir)
  const inside = (path: string) => {
    if (path === '' || path.includes('\0')) return null
    const rel = relative(cwd, resolvedIn(base, path))
    return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)
      ? null
      : rel.split(sep).join('/')
  }
  const files: PatchedFile[] = []
  const add = (path: string, action: FileChangeAction) => {
    const rel = inside(path)
    if (rel !== null) files.push({ path: rel, action })
  }
  for (const hunk of hunks) {
    if (hunk.op === 'add') add(hunk.path, 'added')
    else if (hunk.op === 'delete') add(hunk.path, 'deleted')
    else if (hunk.moveTo === null) add(hunk.path, 'updated')
    else {
      add(hunk.path, 'moved-away')
      add(hunk.moveTo, 'moved-here')
    }
  }
  return files
}

function resolvedIn(base: string, path: string): string {
  return normalize(isAbsolute(path) ? path : join(base, path))
}

/** The names Codex runs as apply_patch (invocation.rs APPLY_PATCH_COMMANDS). */
const APPLY_PATCH = new Set(['apply_patch', 'applypatch'])
const SHELLS = new Set(['bash', 'zsh', 'sh'])

/**
 * The patch a tool call of a rollout applies and the folder it names, or null for a call that
 * applies none. `input` is the call's input as the reader draws it: a function_call's arguments
 * parsed, a custom_tool_call's text as `{input}`. The forms Codex accepts (invocation.rs maybe_parse_apply_patch):
 * - a `custom_tool_call` named apply_patch (its freeform `input`), or a `function_call` named
 *   apply_patch (its `input` argument);
 * - a `shell` call's `command` ["apply_patch", patch], or [bash|zsh|sh, -lc|-c, script];
 * - an `exec_command` call's `cmd` script;
 * where a script is `apply_patch <<'EOF'` … `EOF`, optionally after `cd <path> &&`.
 */
export function patchOfCall(
  name: string | null,
  input: unknown
): { patch: string; workdir: string | null } | null {
  const args = isObject(input) ? input : {}
  const workdir = stringOrNull(args.workdir)
  if (name !== null && APPLY_PATCH.has(name)) {
    const patch = stringOrNull(args.input)
    return patch === null ? null : { patch, workdir }
  }
  const fromScript = (script: string) => {
    const found = heredocPatch(script)
    return found === null ? null : { patch: found.patch, workdir: joined(workdir, found.cd) }
  }
  if (typeof args.cmd === 'string') return fromScript(args.cmd)
  const command = Array.isArray(args.command) ? args.command : null
  if (command === null || !command.every((part) => typeof part === 'string')) return null
  const [program = '', flag = '', script = ''] = command as string[]
  if (command.length === 2 && APPLY_PATCH.has(program)) return { patch: flag, workdir }
  const shell = program.split('/').pop() ?? ''
  if (command.length === 3 && SHELLS.has(shell) && (flag === '-lc' || flag === '-c')) {
    return fromScript(script)
  }
  return null
}

function joined(workdir: string | null, cd: string | null): string | null {
  if (cd === null) return workdir
  return workdir === null || isAbsolute(cd) ? cd : join(workdir, cd)
}

/** `[cd <path> && ]apply_patch <<'EOF'`, the heredoc's delimiter in $3 (quoted or not). */
const HEREDOC_LINE =
  /^\s*(?:cd\s+('[^']*'|"[^"]*"|[^\s'"&;|]+)\s*&&\s*)?(?:apply_patch|applypatch)\s*<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2\s*$/

/**
 * A script that is only `apply_patch` reading a heredoc (optionally after `cd <path> &&`): the
 * heredoc's body and the cd's path. Anything before or after it is no apply_patch to Codex.
 */
function heredocPatch(script: string): { patch: string; cd: string | null } | null {
  if (script.length > MAX_PATCH_CHARS) return null
  const lines = script.replace(/\s+$/, '').split('\n')
  const match = HEREDOC_LINE.exec(lines[0] ?? '')
  if (match === null || lines.length < 2) return null
  const delimiter = match[3] ?? ''
  if (lines[lines.length - 1]?.trim() !== delimiter) return null
  const cd = match[1] === undefined ? null : match[1].replace(/^(['"])(.*)\1$/, '$2')
  return { patch: lines.slice(1, -1).join('\n'), cd }
}
