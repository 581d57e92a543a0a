// Bash detection opens a dirty tracked file once (open + fstat, O_NOFOLLOW | O_NONBLOCK) and
// reads a changed one through that descriptor. A tracked file a command replaced by a FIFO must
// not hang the detection, one replaced by a symlink must not be read through (the content
// outside the workspace is never backed up), and an edited one is backed up byte-equal.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BlobStore, sha256 } from '../../src/core/files/blob-store'
import { fileChangeRecords } from '../../src/core/rewind/other-sessions'
import { sessionsClosedAfterEach } from './fixture'

const { session } = sessionsClosedAfterEach()

describe('a dirty tracked path, opened once', () => {
  it('is seen deleted when a command put a FIFO or a symlink there, and read when edited', async () => {
    const s = await session({ 'pipe.txt': 'was a file', 'link.txt': 'was a file', 'e.txt': 'old' })
    const outside = join(s.base, 'outside-secret.txt')
    writeFileSync(outside, 'outside the workspace')
    s.prompt('baseline')
    await s.history.prepareForCommands()
    s.prompt('swap them')
    await s.bash(
      `rm pipe.txt && mkfifo pipe.txt && rm link.txt && ln -s '${outside}' link.txt && printf new >> e.txt`
    )
    const records = fileChangeRecords(s.store.tree())
    const byPath = new Map(records.map((r) => [r.path, r]))
    expect(byPath.get('pipe.txt')?.after).toBeNull()
    expect(byPath.get('link.txt')?.after).toBeNull()
    expect(byPath.get('e.txt')?.after).toBe(sha256(Buffer.from('oldnew')))
    const store = new BlobStore(s.history.paths.blobs)
    expect(await store.has(sha256(Buffer.from('outside the workspace')))).toBe(false)
    expect(store.read(sha256(Buffer.from('oldnew'))).toString()).toBe('oldnew')
    execFileSync('rm', [join(s.cwd, 'pipe.txt')])
  })
})
