// The tools every session gets, in the order the model sees them (the order is part of the
// cached prompt prefix, so it never changes at run time).
import { bashTool } from './bash'
import { editTool } from './edit'
import { globTool } from './glob'
import { grepTool } from './grep'
import { readTool } from './read'
import type { Tool } from './tool'
import { writeTool } from './write'

export function builtinTools(): Tool[] {
  return [readTool, writeTool, editTool, bashTool, globTool, grepTool]
}
