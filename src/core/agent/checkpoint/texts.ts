// Every string the checkpoint/rewind pair shows the model or the user. The tool errors are the
// oh-my-pi contract word for word (models and tests key on them); the notes are ours.

export const CHECKPOINT_ALREADY_ACTIVE = 'Checkpoint already active.'
export const REPORT_EMPTY = 'Report cannot be empty.'
export const NO_ACTIVE_CHECKPOINT =
  'No active checkpoint. Create a checkpoint before calling rewind.'
export const ALREADY_COMPLETED =
  'Checkpoint already completed; continue from the retained rewind report instead of calling rewind again.'
export const REWIND_REQUESTED = 'Rewind requested. Report captured for context replacement.'
export const CHECKPOINT_MISSING_LOG = 'Rewind branch checkpoint missing, falling back to root'

/** custom_message types the pair writes. */
export const REMINDER_TYPE = 'checkpoint-active'
export const REWIND_REQUIRED_TYPE = 'rewind-required'
export { REWIND_REPORT_TYPE } from '../../session/tree'

/** How many times a turn that ends with a checkpoint open is sent back to the model. */
export const REWIND_REMINDER_CAP = 3

export function checkpointAnswer(goal: string): string {
  return `Checkpoint: ${goal}\nExplore now. When you have what you need, call rewind with a concise report of your findings: everything since this checkpoint leaves the context and the report stays.`
}

export function checkpointActiveReminder(goal: string): string {
  return `A checkpoint is active (goal: ${goal}). When the exploration is done, call rewind with your findings; do not end your turn before you have.`
}

export function rewindRequiredWarning(attempt: number): string {
  const last =
    attempt === REWIND_REMINDER_CAP
      ? '\nThis is the last reminder: if you end your turn now, the checkpoint stays open and your findings are lost from the next turns.'
      : ''
  return `You are in an active checkpoint. Call rewind with your investigation findings before ending your turn. (Reminder ${attempt} of ${REWIND_REMINDER_CAP}.)${last}`
}

export function rewindReport(report: string): string {
  return [
    'The checkpoint is complete: its exploration was rewound and is no longer part of this conversation.',
    'Do not call rewind again for it. To explore again, create a new checkpoint first.',
    '',
    'Report of the exploration:',
    report
  ].join('\n')
}

export function checkpointLeftOpen(goal: string): string {
  return `The model ended its turn ${REWIND_REMINDER_CAP + 1} times with the checkpoint "${goal}" still open, so the agent stopped. The checkpoint is still active: send a message to continue.`
}

/** What the user is told when a rewind took effect. */
export function rewindNotice(report: string): string {
  return `Rewound to the checkpoint: the exploration left the context; the report stays:\n${report}`
}
