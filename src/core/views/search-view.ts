// What "Search the session" searches, per graph node: the prompt, and the rest of what the node
// holds as one text (answers, tool names, the paths its tools and file changes name). Built once
// per shape of the tree (the studio caches it beside the graph), masked like every view; the
// renderer indexes it once and filters it per keystroke. Labels come with the graph.
import type { SearchEntry } from '../../shared/views'
import { type SessionTree, contentText, isPrompt, promptText } from '../session/tree'
import { type TurnIndex, cutForViews } from './session-graph'

/**
 * Input fields that name a file or a folder: the built-in tools' (Claude Code's, Gemini CLI's),
 * and OpenCode's `filePath` (its write, read and edit).
 */
const PATH_FIELDS = ['file_path', 'path', 'notebook_path', 'filePath']

function pathsIn(input: unknown): string[] {
  if (typeof input !== 'object' || input === null) return []
  const fields = input as Record<string, unknown>
  return PATH_FIELDS.flatMap((field) => (typeof fields[field] === 'string' ? [fields[field]] : []))
}

export function buildSearchIndex(tree: SessionTree, index: TurnIndex): SearchEntry[] {
  const prompts = new Map<string, string>()
  const texts = new Map<string, string[]>()
  for (const record of index.heads) texts.set(record.uuid, [])
  for (const [uuid, own] of index.owner) {
    const parts = own === null ? undefined : texts.get(own)
    const record = parts === undefined ? undefined : tree.get(uuid)
    if (parts === undefined || record === undefined) continue
    switch (record.type) {
      case 'user':
        if (isPrompt(record)) prompts.set(own as string, promptText(record))
        break
      case 'assistant': {
        const content = record.message.content
        if (typeof content === 'string') {
          parts.push(content)
          break
        }
        for (const block of content) {
          if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text)
          if (block.type === 'tool_use') parts.push(String(block.name), ...pathsIn(block.input))
        }
        break
      }
      case 'branch_summary':
        parts.push(record.summary)
        break
      case 'custom_message':
        if (!record.hidden || record.uuid === own) parts.push(contentText(record.content))
        break
    }
  }
  return index.heads.map((record) => {
    const parts = texts.get(record.uuid) ?? []
    const changed = new Set(tree.fileChanges(record.uuid).map((change) => change.path))
    return {
      nodeId: record.uuid,
      prompt: cutForViews(prompts.get(record.uuid) ?? ''),
      // Searched on the page: no more of a turn's text than its views show.
      text: cutForViews([...parts, ...changed].join('\n'))
    }
  })
}
