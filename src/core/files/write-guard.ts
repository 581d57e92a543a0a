// The seam between the agent's tools and file history: tools call these hooks around every
// change they make to the workspace, and file history keeps what it needs to rewind them.
// A hook that throws refuses the change: the tool answers with the error instead of writing.
import type { LeftRunning } from '../os/left-running'
import type { NotBackedUp } from './ignored-files'

export interface WriteGuard {
  /** Before Write/Edit replace `absPath` (which may not exist yet) with `newContent`. */
  beforeWrite(absPath: string, tool: string, newContent: string): Promise<void>
  /**
   * After the tool wrote `absPath`. `createdFolder`: the first folder the write made for it
   * (what `mkdir -p` answers), so every folder from there down to the file's is new.
   */
  afterWrite(absPath: string, tool: string, createdFolder?: string): Promise<void>
  /** Before a command that may change any file in the workspace (Bash). */
  beforeCommand(tool: string): Promise<void>
  /**
   * After that command ended (or was killed): records whatever it created, changed, deleted.
   * `leftRunning`: what it started that still runs outside its process group (left-running.ts).
   */
  afterCommand(tool: string, leftRunning?: readonly LeftRunning[]): Promise<CommandChanges>
}

export interface CommandChanges {
  /** Workspace-relative paths, forward slashes. */
  created: string[]
  modified: string[]
  deleted: string[]
  /** Changed but not tracked (over the size cap), with the reason: reported, never silent. */
  untracked: { path: string; reason: string }[]
  /** Changes to what git ignores that were not backed up, by folder (ignored-files.ts). */
  notBackedUp: NotBackedUp[]
  /** What went wrong keeping them (a full disk): the report says it after the lists. */
  warnings: string[]
  /**
   * Paths that changed since the previous command while a process an earlier command left
   * running was at work, not by the agent's tools: filed under no command.
   */
  unknownOrigin: string[]
}
