// What a command left running outside its process group. Ending the group when the command exits
// ends what it started in the background, but not a process that left the group (`setsid`,
// `setpgid`: a daemon). Such a process can go on changing files after the command's changes were
// taken, and no later look at the workspace can tell its writes from a hand edit or from the next
// command's. So each command carries a mark in its environment (a random token, inherited by
// everything it starts), and after it ends the processes still carrying the mark outside its
// group are found: the command's report names them, and file history files what changes while
// they run as of unknown origin rather than charging it to a command.
//
// Linux only (/proc); elsewhere nothing is found. A process that clears its environment
// (`env -i`), or a pid counter that wrapped during the command, goes unseen.
import { randomBytes } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'

/** The environment variable that carries a command's mark. */
export const COMMAND_MARK = 'REWIND_STUDIO_COMMAND'

export function newCommandMark(): string {
  return randomBytes(12).toString('hex')
}

/** A process, with the time it started (clock ticks since boot): a reused pid is another. */
export interface LeftRunning {
  pid: number
  started: string
  /** Its command name, as the kernel keeps it (15 bytes at most). */
  name: string
}

interface Stat {
  name: string
  state: string
  group: number
  started: string
}

function statOf(pid: number): Stat | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // "pid (name) state ppid pgrp session ... starttime(22)": the name may hold spaces and ")".
  const close = text.lastIndexOf(')')
  const fields = text.slice(close + 2).split(' ')
  return {
    name: text.slice(text.indexOf('(') + 1, close),
    state: fields[0] ?? '',
    group: Number(fields[2]),
    started: fields[19] ?? ''
  }
}

/**
 * The live processes carrying `mark` that are not in process group `group` (the command's, which
 * is being ended), among the pids from `fromPid` on (what the command started came after it).
 */
export function leftRunning(mark: string, group: number, fromPid: number): LeftRunning[] {
  if (process.platform !== 'linux') return []
  const needle = Buffer.from(`\0${COMMAND_MARK}=${mark}\0`)
  const found: LeftRunning[] = []
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  for (const name of names) {
    const pid = Number(name)
    if (!(pid >= fromPid)) continue
    let environ: Buffer
    try {
      // Another user's process, or one gone meanwhile: not ours to find.
      environ = Buffer.concat([Buffer.from('\0'), readFileSync(`/proc/${pid}/environ`)])
    } catch {
      continue
    }
    if (!environ.includes(needle)) continue
    const stat = statOf(pid)
    if (stat === null || stat.group === group || stat.state === 'Z') continue
    found.push({ pid, started: stat.started, name: stat.name })
  }
  return found
}

/** Whether that process still runs (the same one: its pid not reused). */
export function stillRunning(process: LeftRunning): boolean {
  const stat = statOf(process.pid)
  return stat !== null && stat.started === process.started && stat.state !== 'Z'
}
