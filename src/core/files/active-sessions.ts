// Which sessions are working in a workspace right now: one marker file per live session, holding
// its process id. A second session is warned, and rewinds check the other's changes (conflicts).
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import * as z from 'zod'
import { isProcessAlive } from '../os/process-alive'
import { listDirIfPresent } from '../os/list-dir'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'

const ActiveSession = z.object({
  sessionId: z.string(),
  pid: z.number().int(),
  startedAt: z.string()
})
export type ActiveSession = z.infer<typeof ActiveSession>

/** The live sessions other than `sessionId`; markers of dead processes are removed. */
export async function otherActiveSessions(
  dir: string,
  sessionId: string
): Promise<ActiveSession[]> {
  const names = await listDirIfPresent(dir)
  const others: ActiveSession[] = []
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = join(dir, name)
    const parsed = ActiveSession.safeParse(
      JSON.parse(await fs.readFile(file, 'utf8').catch(() => 'null'))
    )
    if (!parsed.success || parsed.data.sessionId === sessionId) continue
    if (isProcessAlive(parsed.data.pid)) others.push(parsed.data)
    else await fs.rm(file, { force: true })
  }
  return others
}

export async function markActive(dir: string, sessionId: string): Promise<void> {
  // The id names a file: refuse anything that could climb out of `dir`.
  if (!/^[A-Za-z0-9-]+$/.test(sessionId))
    throw new Error(`Not a session id: ${JSON.stringify(sessionId)}`)
  ensurePrivateDir(dir)
  const marker: ActiveSession = { sessionId, pid: process.pid, startedAt: new Date().toISOString() }
  writePrivateFileSync(join(dir, `${sessionId}.json`), JSON.stringify(marker))
}

export async function unmarkActive(dir: string, sessionId: string): Promise<void> {
  await fs.rm(join(dir, `${sessionId}.json`), { force: true })
}
