// The tools every session gets, in the order the model sees them (the order is part of the
// cached prompt prefix, so it never changes at run time).
import { createBashTool } from './bash'
import { editTool } from './edit'
import { globTool } from './glob'
import { grepTool } from './grep'
import { readTool } from './read'
import type { Tool } from './tool'
import { writeTool } from './write'

export interface BuiltinToolOptions {
  /** The setting bash.sandbox (default off: Bash runs with the user's rights). */
  bashSandbox?: boolean
}

export function builtinTools(options: BuiltinToolOptions = {}): Tool[] {
  const bash = createBashTool({ sandbox: options.bashSandbox ?? false })
  return [readTool, writeTool, editTool, bash, globTool, grepTool]
}
