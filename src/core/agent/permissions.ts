// When the user is asked before a tool runs. Reading never asks; edits ask only in 'default';
// commands ask unless the user chose bypassPermissions, since a command can do anything.
import type { PermissionMode } from '../../shared/messages'
import type { ToolPermission } from './tools/tool'

export function needsPermission(mode: PermissionMode, permission: ToolPermission): boolean {
  switch (permission) {
    case 'read':
      return false
    case 'edit':
      return mode === 'default'
    case 'execute':
      return mode !== 'bypassPermissions'
  }
}
