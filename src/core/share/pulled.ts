// Pulled sessions in the data home: `<data home>/shared/<workspace folder>/<id>/session.jsonl`,
// one per session pulled into that workspace, each written whole by a pull (pull.ts) and never
// appended to. Its header is ours: it names this workspace (its paths are relative to it) and,
// under `sharedFrom`, where it came from (the remote, the share's commit, who shared it, when, on
// which code, the folder it ran in there). Everything after the header is the shared log as it
// came: read by the same reader, with the same rules, as any session file.
//
// It lies outside sessions/: it is no session of this workspace's. It is not listed, continued
// or resumed with them, `rewind FILE` and `fork FILE` refuse it without `--cwd` as any file from
// elsewhere, and it is only ever opened read-only. Its backups are in the workspace's file
// history (pull.ts), so every view (diffs, compare) and a continue from it find them there.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import * as z from 'zod'
import { realPathOf, workspaceFolder } from '../session/paths'
import { SessionStore } from '../session/store'
import { SHARED_ID, type SharedInfo, ShareCode } from '../../shared/share-views'
import { shownOneLine } from '../../shared/shown-text'

/** The header's `sharedFrom`: written by our pull, read back from a file anyone could edit. */
export const SharedFrom = z.object({
  remote: z.string().max(100),
  commit: z.string().max(64),
  sharedBy: z.string().max(1000),
  sharedAt: z.string().max(40),
  code: ShareCode,
  codeHere: z.boolean().optional(),
  cwd: z.string().max(4096),
  pulledAt: z.string().max(40)
})
export type SharedFrom = z.infer<typeof SharedFrom>

export function sharedDir(home: string, cwd: string): string {
  return join(home, 'shared', workspaceFolder(cwd))
}

export function pulledFile(home: string, cwd: string, id: string): string {
  return join(sharedDir(home, cwd), id, 'session.jsonl')
}

/** The ids of the sessions pulled into `cwd`. */
export function pulledIds(home: string, cwd: string): string[] {
  try {
    return readdirSync(sharedDir(home, cwd)).filter(
      (id) => SHARED_ID.test(id) && existsSync(pulledFile(home, cwd, id))
    )
  } catch {
    return []
  }
}

/**
 * Where a store's session came from when it is a pulled one (its file where pulls write them,
 * for the workspace its header names), else null.
 */
export function pulledFrom(
  home: string,
  store: Pick<SessionStore, 'file' | 'header'>
): SharedInfo | null {
  const id = store.header.sessionId
  if (!SHARED_ID.test(id)) return null
  if (realPathOf(store.file) !== realPathOf(pulledFile(home, store.header.cwd, id))) return null
  const parsed = SharedFrom.safeParse((store.header as { sharedFrom?: unknown }).sharedFrom)
  if (!parsed.success) return null
  // Someone else's words: masked and escaped for the page and the terminal alike.
  const from = parsed.data
  return {
    ...from,
    sessionId: id,
    sharedBy: shownOneLine(from.sharedBy),
    remote: shownOneLine(from.remote),
    cwd: shownOneLine(from.cwd),
    code:
      from.code === null
        ? null
        : {
            ...from.code,
            branch: from.code.branch === null ? null : shownOneLine(from.code.branch)
          }
  }
}

/** Why a pulled session is read-only, and what can be done with it. */
export const PULLED_READ_ONLY =
  'pulled from a git remote. Continue from here or Fork to new session makes a session of your own from any node, its files restored if you ask'

/** A pulled session opened read-only, its notices saying who shared it, when, on which code. */
export function openPulledStore(
  home: string,
  file: string,
  notices: readonly string[]
): SessionStore {
  const store = SessionStore.open(file, { readOnly: true, reason: PULLED_READ_ONLY })
  const shared = pulledFrom(home, store)
  if (shared !== null) {
    const code =
      shared.code === null
        ? ''
        : `, on ${shared.code.branch ?? 'a detached HEAD'} at commit ${shared.code.commit.slice(0, 12)}${shared.codeHere === false ? ' (not in this repository: fetch it to look at that code)' : ''}`
    store.openingNotices.push(
      `Shared by ${shared.sharedBy} on ${shared.sharedAt}${code}; pulled from ${shared.remote} on ${shared.pulledAt}.`
    )
  }
  store.openingNotices.push(...notices)
  return store
}
