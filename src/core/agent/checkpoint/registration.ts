// Which of the checkpoint/rewind pair a session is offered. The rule is oh-my-pi's: nothing unless
// the setting checkpoint.enabled is on; then a top-level session gets both, and a sub-agent gets
// them only if its definition asks for one of them by name. Asking for either brings the other:
// a checkpoint with no rewind (or the reverse) would leave the agent stuck.

export const CHECKPOINT_TOOL_NAMES = ['checkpoint', 'rewind'] as const
export type CheckpointToolName = (typeof CHECKPOINT_TOOL_NAMES)[number]

export interface CheckpointGate {
  /** The setting checkpoint.enabled. */
  enabled: boolean
  /** 0 for the session the user talks to; sub-agents are deeper. */
  taskDepth: number
  /** A sub-agent's explicit tool list (its definition's `tools:`), when it has one. */
  requestedTools?: readonly string[]
}

export function checkpointToolNames(gate: CheckpointGate): CheckpointToolName[] {
  if (!gate.enabled) return []
  if (gate.taskDepth === 0) return [...CHECKPOINT_TOOL_NAMES]
  const requested = gate.requestedTools ?? []
  return CHECKPOINT_TOOL_NAMES.some((name) => requested.includes(name))
    ? [...CHECKPOINT_TOOL_NAMES]
    : []
}
