// What another tool's backups can and cannot say of a session's files, in the words every view of
// them uses: the rescue restore's dialog and Compare on that tool's session say the same thing.

/**
 * Claude Code backs a file up before each change, never after: a node's files are those
 * backups (the one taken before the next change), and how the last turn to change a file left it
 * was never saved.
 */
export const BEFORE_ONLY_NOTE =
  'Claude Code keeps only the content before each change: its backups give the files as they were before a prompt; how a turn left them was never saved.'
