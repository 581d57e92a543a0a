// The files a stretch of conversation read and modified, for a summary's lists. Computed from the
// records, never asked of the model: the file tools' calls (Read; Write and Edit), the file_change
// records of each prompt's checkpoint (which also catch what Bash changed), and the lists of the
// summaries among the records (a second compaction keeps the first one's files).
import type { SessionTree, TreeRecord } from '../../session/tree'
import { describePath } from '../tools/paths'

export interface FilesTouched {
  /** Read and not modified, workspace-relative where inside it, sorted. */
  read: string[]
  modified: string[]
}

export function filesTouched(
  records: readonly TreeRecord[],
  tree: Pick<SessionTree, 'fileChanges'>,
  cwd: string
): FilesTouched {
  const read = new Set<string>()
  const modified = new Set<string>()
  // A long branch names the same few files thousands of times: each is made relative once.
  const shown = new Map<string, string>()
  const relative = (path: string) => {
    let rel = shown.get(path)
    if (rel === undefined) {
      rel = describePath(path, cwd)
      shown.set(path, rel)
    }
    return rel
  }
  for (const record of records) {
    switch (record.type) {
      case 'assistant': {
        const content = record.message.content
        if (typeof content === 'string') break
        for (const block of content) {
          if (block.type !== 'tool_use') continue
          const { name, input } = block as { name?: unknown; input?: unknown }
          if (name !== 'Read' && name !== 'Write' && name !== 'Edit') continue
          const path = filePathOf(input)
          if (path === null) continue
          if (name === 'Read') read.add(relative(path))
          else modified.add(relative(path))
        }
        break
      }
      case 'user': {
        // Changes are filed under the prompt that opened the turn; other records have none.
        const changes = tree.fileChanges(record.uuid)
        for (const change of changes) modified.add(change.path)
        break
      }
      case 'branch_summary':
      case 'compaction': {
        const listed = listsOf(record.details)
        for (const path of listed.read) read.add(path)
        for (const path of listed.modified) modified.add(path)
        break
      }
    }
  }
  return {
    read: [...read].filter((p) => !modified.has(p)).sort(),
    modified: [...modified].sort()
  }
}

/** The lists a summary's details carry (readFiles, modifiedFiles); empty when it has none. */
export function listsOf(details: unknown): FilesTouched {
  const d = (typeof details === 'object' && details !== null ? details : {}) as Record<
    string,
    unknown
  >
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
  return { read: strings(d.readFiles), modified: strings(d.modifiedFiles) }
}

function filePathOf(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return null
  const path = (input as { file_path?: unknown }).file_path
  return typeof path === 'string' && path !== '' ? path : null
}
