// Finding 5 (second half): "Backups are stored readable by all: another local user read a
// backed-up mode-600 `secret.env`. [...] keep a file's mode in its metadata, not in the blob's."
//
// A blob is 0600 whatever the mode of the file it backs up; the file's mode is kept in its
// file_change records (beforeMode/afterMode) and in restore journals (fromMode/toMode), and a
// restore that recreates a file gives it that mode, not the umask's default.
import { chmodSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { fileChangeRecords } from '../../src/core/rewind/other-sessions'
import { sessionsClosedAfterEach } from '../rewind/fixture'

const { session } = sessionsClosedAfterEach()

const modeOf = (path: string) => statSync(path).mode & 0o7777

function blobFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

describe('a backup keeps the file’s mode in its metadata, never on its blob', () => {
  it('stores every blob 0600, a private file’s and an executable’s alike', async () => {
    const s = await session({ 'secret.env': 'TOKEN=1\n', 'run.sh': 'echo 1\n' })
    chmodSync(join(s.cwd, 'secret.env'), 0o600)
    chmodSync(join(s.cwd, 'run.sh'), 0o755)
    s.prompt('rotate the token, bump the script')
    await s.write('secret.env', 'TOKEN=2\n')
    await s.bash("printf 'echo 2\\n' > run.sh")

    const blobs = blobFiles(s.history.paths.blobs)
    expect(blobs.length).toBeGreaterThanOrEqual(4)
    expect(blobs.map(modeOf).filter((mode) => mode !== 0o600)).toEqual([])
    const records = fileChangeRecords(s.store.tree()).map(({ path, beforeMode, afterMode }) => ({
      path,
      beforeMode,
      afterMode
    }))
    expect(records).toEqual([
      { path: 'secret.env', beforeMode: 0o600, afterMode: 0o600 },
      { path: 'run.sh', beforeMode: 0o755, afterMode: 0o755 }
    ])
  })

  it('recreates a deleted private file with its own mode, not the umask’s', async () => {
    const s = await session({ 'secret.env': 'TOKEN=1\n' })
    chmodSync(join(s.cwd, 'secret.env'), 0o600)
    s.prompt('clean up')
    await s.bash('rm secret.env')
    await s.engine.rewind(checkpointAt(s.store, 1), 'both')
    expect(s.read('secret.env')).toBe('TOKEN=1\n')
    expect(modeOf(join(s.cwd, 'secret.env'))).toBe(0o600)
  })

  it('recreates a file the agent made with the mode it had, on going back to it', async () => {
    const s = await session()
    s.prompt('make a private script')
    await s.bash("printf 'echo hi\\n' > tool.sh && chmod 700 tool.sh")
    s.prompt('remove it')
    await s.bash('rm tool.sh')
    // Back to before "remove it": tool.sh comes back as the first turn left it.
    await s.engine.rewind(checkpointAt(s.store, 2), 'both')
    expect(s.read('tool.sh')).toBe('echo hi\n')
    expect(modeOf(join(s.cwd, 'tool.sh'))).toBe(0o700)
  })
})
