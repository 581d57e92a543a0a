// Drives test/support/session-writer-child.ts: a session file written by another process.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { SessionStore } from '../../src/core/session/store'
import type { LaunchStudioOptions } from '../../src/core/studio/launch'
import type { Studio } from '../../src/core/studio/studio'
import { makeWorkspace } from '../rewind/fixture'
import { launchScriptedStudio } from './scripted-studio'

export interface SessionWriter {
  /** Appends a prompt in the child; resolves with its uuid once it is on disk. */
  append(prompt: string): Promise<string>
  close(): Promise<void>
}

export async function startSessionWriter(file: string): Promise<SessionWriter> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'session-writer-child.ts'), file],
    { stdio: ['pipe', 'pipe', 'pipe'] }
  )
  let out = ''
  let err = ''
  const waiting: ((line: string) => void)[] = []
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    for (let nl = out.indexOf('\n'); nl !== -1; nl = out.indexOf('\n')) {
      const line = out.slice(0, nl)
      out = out.slice(nl + 1)
      waiting.shift()?.(line)
    }
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const next = () =>
    new Promise<string>((resolve, reject) => {
      waiting.push(resolve)
      void exited.then(() => reject(new Error(`the writer exited:\n${err}`)))
    })
  const ready = await next()
  if (ready !== 'READY') throw new Error(`the writer said ${ready}:\n${err}`)
  return {
    async append(prompt) {
      const said = next()
      child.stdin.write(`${prompt}\n`)
      return (await said).replace(/^APPENDED /, '')
    },
    async close() {
      child.stdin.end()
      await exited
    }
  }
}

/**
 * A session of one prompt held by a writer child, and a scripted studio that has it open
 * read-only (following what the writer appends): the studio's `emit` is the caller's.
 */
export async function studioBesideWriter(emit: LaunchStudioOptions['emit']): Promise<{
  file: string
  writer: SessionWriter
  studio: Studio
}> {
  const where = makeWorkspace({ 'a.txt': 'a' })
  const created = SessionStore.create({ home: where.home, cwd: where.cwd })
  created.appendMessage({ role: 'user', content: 'first prompt' })
  created.close()
  const writer = await startSessionWriter(created.file)
  const studio = await launchScriptedStudio({
    home: where.home,
    cwd: where.cwd,
    permissionMode: 'default',
    session: { kind: 'id', id: created.sessionId },
    emit
  })
  return { file: created.file, writer, studio }
}
