// The checkpoint and rewind tools. Both only touch the agent's CheckpointState: rewind records a
// report and the agent applies it when the step ends (apply.ts), never in the middle of a batch.
// A checkpoint and its rewind in the same step work: checkpoint sets the state as it runs.
import * as z from 'zod'
import { ToolError } from '../tools/tool'
import type { Tool, ToolOutput } from '../tools/tool'
import type { CheckpointState } from './state'
import {
  ALREADY_COMPLETED,
  CHECKPOINT_ALREADY_ACTIVE,
  NO_ACTIVE_CHECKPOINT,
  REPORT_EMPTY,
  REWIND_REQUESTED,
  checkpointAnswer
} from './texts'

const CheckpointInput = z.strictObject({
  goal: z.string().describe('What the exploration is for: the question the report will answer.')
})
const RewindInput = z.strictObject({
  report: z
    .string()
    .describe('Your findings: what you learned that the rest of the task needs. Not empty.')
})

export function createCheckpointTools(
  state: CheckpointState,
  now: () => Date = () => new Date()
): Tool[] {
  const checkpoint: Tool<z.infer<typeof CheckpointInput>> = {
    name: 'checkpoint',
    description:
      'Mark this point of the conversation before an exploration (reading around, trying commands) whose details you will not need afterwards. Then explore, and call rewind with a concise report: the exploration leaves the context and only the report stays. One checkpoint at a time; call rewind before ending your turn. It does not save or restore files.',
    inputSchema: CheckpointInput,
    permission: 'read',
    describeCall: (input) => `checkpoint(${input.goal})`,
    execute: async (input): Promise<ToolOutput> => {
      if (state.active !== null) throw new ToolError(CHECKPOINT_ALREADY_ACTIVE)
      const entryUuid = state.batchResultUuid
      if (entryUuid === null) throw new Error('checkpoint ran outside a tool batch')
      const startedAt = now().toISOString()
      state.active = { goal: input.goal, startedAt, entryUuid }
      state.lastCompleted = null
      return {
        content: checkpointAnswer(input.goal),
        isError: false,
        details: { goal: input.goal, startedAt }
      }
    }
  }
  const rewind: Tool<z.infer<typeof RewindInput>> = {
    name: 'rewind',
    description:
      'End the active checkpoint: everything since it leaves the context and your report of the findings stays in its place. The report must not be empty. Files are not restored.',
    inputSchema: RewindInput,
    permission: 'read',
    describeCall: () => 'rewind',
    execute: async (input): Promise<ToolOutput> => {
      if (state.active === null)
        throw new ToolError(state.lastCompleted !== null ? ALREADY_COMPLETED : NO_ACTIVE_CHECKPOINT)
      if (state.pending !== null) throw new ToolError(ALREADY_COMPLETED)
      const report = input.report.trim()
      if (report === '') throw new ToolError(REPORT_EMPTY)
      state.pending = { report }
      return { content: REWIND_REQUESTED, isError: false, details: { report, rewound: true } }
    }
  }
  return [checkpoint, rewind]
}
