// Signals to a command's whole process group (commands start as group leaders: bash.ts,
// command-runner.ts), so what a command started in the background ends with it.

/**
 * Sends `signal` to every process of the group `pid` leads; false when none got it. Never
 * throws: ESRCH means the group has ended already, and EPERM that what is left is no process of
 * ours (a command that changed its user); callers end commands from timers and from a helper's
 * exit, where a throw would stop the rest of their cleanup.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    return false
  }
}
