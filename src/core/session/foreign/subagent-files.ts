// A sub-agent's transcript that a format keeps as a file of its own beside the session's (Codex
// CLI's sub-agent rollouts, Gemini CLI's sub-agent chats), read into a tree of its own when the
// session's runs are asked for, and again only when the file changed (a sub-agent still at work):
// the graph asks for the runs each time it is built.
import { statSync } from 'node:fs'
import type { SessionTree } from '../tree'
import type { SubagentNesting } from './subagent-nesting'
import type { SubagentRun } from './types'

/** A transcript as its format reads it. */
export interface Transcript {
  tree: SessionTree
  /** The runs it starts in turn, read within `nesting` (a format whose sub-agents nest). */
  runs?: (nesting: SubagentNesting) => SubagentRun[]
}

export interface ReadTranscript extends Transcript {
  file: string
}

export class SubagentFiles {
  private readonly read = new Map<string, { stamp: string; transcript: ReadTranscript }>()

  /** A format's reading of one transcript file (its own mapper), null when it cannot be read. */
  constructor(private readonly readTree: (file: string) => Transcript | null) {}

  /** The transcript in `file` (the run `id`'s), or null when it is missing or unreadable. */
  transcript(id: string, file: string): ReadTranscript | null {
    let stamp: string
    try {
      const stat = statSync(file)
      if (!stat.isFile()) return null
      stamp = `${file}|${stat.size}|${stat.mtimeMs}`
    } catch {
      return null
    }
    const known = this.read.get(id)
    if (known !== undefined && known.stamp === stamp) return known.transcript
    const read = this.readTree(file)
    if (read === null) return null
    const transcript = { ...read, file }
    this.read.set(id, { stamp, transcript })
    return transcript
  }
}
