// Finding 4 of the hardening review: "refuse `/`, the home folder, `""` and `.` ... as a path in
// a record (a `file_change` with path `""` replaced an empty workspace folder with a file, and
// `--undo` did not bring the folder back)." A record naming the workspace root is refused at plan
// time, naming the record; and an undo of a restore that put a file where an empty folder stood
// brings the folder back.
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RewindError } from '../../src/core/rewind/rewind-engine'
import { sessionsDir } from '../../src/core/session/paths'
import { runCli } from '../support/cli'
import { handMadeSession, placeIn } from '../support/hand-made-session'
import { makeWorkspace, sessionsClosedAfterEach } from '../rewind/fixture'

const { session } = sessionsClosedAfterEach()

describe('a file_change record naming the workspace root', () => {
  it.each(['', '.', './', 'sub/..'])(
    'path %j is refused at plan time, naming the record; the folder stays a folder',
    async (path) => {
      const s = await session()
      const content = s.history.blobs.put(Buffer.from('not a folder\n'), { path: 'x' })
      const checkpoint = s.prompt('first')
      // The record says the session deleted a file at `path`: a rewind would write it back.
      const [record] = s.store.appendFileChanges([
        { checkpointUuid: checkpoint, path, before: content, after: null, source: 'Bash' }
      ])
      const plan = s.engine.planRewind(checkpoint, 'both')
      await expect(plan).rejects.toThrow(RewindError)
      await expect(plan).rejects.toThrow(
        `record ${record?.uuid} names a path a restore may not touch. Refused path ${JSON.stringify(path)}: it names the workspace folder itself`
      )
      expect(statSync(s.cwd).isDirectory()).toBe(true)
    }
  )

  it('"/" and the workspace\'s own absolute path are refused too, naming the record', async () => {
    for (const pathOf of [() => '/', (cwd: string) => cwd]) {
      const s = await session()
      const path = pathOf(s.cwd)
      const content = s.history.blobs.put(Buffer.from('not a folder\n'), { path: 'x' })
      const checkpoint = s.prompt('first')
      const [record] = s.store.appendFileChanges([
        { checkpointUuid: checkpoint, path, before: content, after: null, source: 'Bash' }
      ])
      await expect(s.engine.planRewind(checkpoint, 'both'), path).rejects.toThrow(
        `record ${record?.uuid} names a path a restore may not touch`
      )
      expect(statSync(s.cwd).isDirectory()).toBe(true)
    }
  })

  it('rewind FILE refuses it too, and the empty workspace folder stays', async () => {
    const where = makeWorkspace()
    const { file, recordUuid } = handMadeSession(where.cwd, '', 'x')
    const own = placeIn(sessionsDir(where.home, where.cwd), file)
    const run = await runCli(['rewind', own, '--to', '1'], {
      env: { REWIND_STUDIO_HOME: where.home }
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`record ${recordUuid} names a path a restore may not touch`)
    expect(statSync(where.cwd).isDirectory()).toBe(true)
  })
})

describe('a restore that puts a file where an empty folder stands', () => {
  it('is undone with the folder back', async () => {
    const s = await session()
    s.prompt('write notes')
    await s.write('notes', 'a file\n')
    s.prompt('make notes a folder')
    await s.bash('rm notes && mkdir notes')
    const last = s.store.tree().checkpoints().at(-1)?.uuid ?? ''
    await s.engine.rewind(last, 'both')
    expect(s.read('notes')).toBe('a file\n')
    await s.engine.undo()
    expect(existsSync(join(s.cwd, 'notes')) && statSync(join(s.cwd, 'notes')).isDirectory()).toBe(
      true
    )
  })
})
