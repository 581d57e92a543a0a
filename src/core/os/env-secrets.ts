// The secrets this process was handed in its environment (ANTHROPIC_API_KEY, …), taken out of it
// the first time one is read, and held here instead.
//
// Why: the children's environment is scrubbed (child-env.ts), yet /proc/<pid>/environ shows any
// process of the same user, the agent's Bash among them, this process's environment block as it
// started. Deleting a variable from process.env (unsetenv) takes it out of the list the C library
// keeps and leaves the block unchanged: `cat /proc/<app pid>/environ` still printed the key. So
// each secret's value is also overwritten with NULs in the block itself, through /proc/self/mem,
// which a process may always write for itself. The name stays (`ANTHROPIC_API_KEY=` and NULs).
//
// What this cannot reach: a copy of the environment another process holds (the shell or `npm`
// that started the app, helper processes Electron starts before the app's code runs), and this
// process's memory, which a same-user process can read where ptrace is allowed (docs/security.md).
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs'
import { maskLiterally } from '../../shared/mask-secrets'
import { isSecretName } from './child-env'

const held = new Map<string, string>()
let taken = false

/**
 * Moves every secret variable (isSecretName) out of process.env into this module and blanks its
 * value in the environment block. Done once per process; every host calls it as it starts.
 */
export function takeEnvSecrets(): void {
  if (taken) return
  taken = true
  const names: string[] = []
  for (const [name, value] of Object.entries(process.env)) {
    if (!isSecretName(name) || value === undefined) continue
    held.set(name, value)
    names.push(name)
    delete process.env[name]
  }
  if (names.length > 0) blankInEnvironmentBlock(names)
  // Whatever they look like, the values are masked in what the app shows, logs of tool results,
  // exports and shares (mask-secrets.ts): a gateway's token has no key's shape.
  maskLiterally(held.values())
}

/**
 * A secret the environment held when this process started (ANTHROPIC_API_KEY, …), or one put
 * into process.env since (tests running a studio in their own process do), read where it is.
 */
export function envSecret(name: string): string | undefined {
  return process.env[name] ?? held.get(name)
}

/**
 * Overwrites the values of `names` with NULs where the kernel keeps this process's initial
 * environment (/proc/self/stat's env_start to env_end). Linux only; elsewhere there is no
 * /proc/<pid>/environ to read. A failure leaves the block as it was: the app still runs.
 */
function blankInEnvironmentBlock(names: string[]): void {
  if (process.platform !== 'linux') return
  let fd: number | undefined
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1')
    // The fields after the command name (in parentheses, which may hold spaces): the third field
    // is the first of them, env_start and env_end are the 50th and 51st (proc(5)).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const start = Number(fields[50 - 3])
    const end = Number(fields[51 - 3])
    if (!(start > 0 && end > start)) return
    fd = openSync('/proc/self/mem', 'r+')
    const block = Buffer.alloc(end - start)
    readSync(fd, block, 0, block.length, start)
    for (const name of names) {
      const entry = Buffer.from(`${name}=`, 'latin1')
      // Entries start at the block's start or after a NUL.
      for (let at = block.indexOf(entry); at !== -1; at = block.indexOf(entry, at + 1)) {
        if (at > 0 && block[at - 1] !== 0) continue
        const valueStart = at + entry.length
        const nul = block.indexOf(0, valueStart)
        const valueEnd = nul === -1 ? block.length : nul
        if (valueEnd > valueStart) {
          writeSync(
            fd,
            Buffer.alloc(valueEnd - valueStart),
            0,
            valueEnd - valueStart,
            start + valueStart
          )
        }
      }
    }
  } catch {
    // No /proc/self/mem to write (a hardened kernel): the block keeps the value; see the header.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
