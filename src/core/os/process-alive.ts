import { readFileSync } from 'node:fs'

/**
 * Whether a process with this pid is running (signal 0 checks without sending anything). A
 * zombie, dead but not yet reaped by its parent (a killed process whose parent has not waited
 * for it yet, for a while after a kill -9), answers signal 0 too: where /proc says so, it is
 * dead, as it holds nothing and writes nothing.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  return !isZombie(pid)
}

function isZombie(pid: number): boolean {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return false
  }
  // "pid (comm) S ...": the state follows the command name, which may itself hold ") ".
  const state = stat.charAt(stat.lastIndexOf(')') + 2)
  return state === 'Z' || state === 'X'
}
