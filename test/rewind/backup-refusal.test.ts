import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { historyPaths } from '../../src/core/files/history-paths'
import { makeWorkspace } from './fixture'

// A permission error is only real for a user the file system says no to: as root, the child
// runs as `nobody` (root ignores file modes); otherwise as the current user.
const NOBODY = 65534

describe('a backup that cannot be stored refuses the write', () => {
  it('answers EACCES for a read-only blob folder, writes nothing and records nothing', () => {
    const where = makeWorkspace({ 'a.txt': 'old content' })
    const paths = historyPaths(where.home, where.cwd)
    mkdirSync(paths.blobs, { recursive: true })
    for (const dir of [
      where.base,
      where.cwd,
      where.home,
      join(where.home, 'file-history'),
      paths.root
    ]) {
      chmodSync(dir, 0o777)
    }
    chmodSync(join(where.cwd, 'a.txt'), 0o666)
    chmodSync(paths.blobs, 0o555)
    const asNobody = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {}
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'backup-refusal-child.ts'), where.home, where.cwd],
      { encoding: 'utf8', ...asNobody, env: { ...process.env, HOME: where.base } }
    )
    expect(child.stderr).toBe('')
    expect(JSON.parse(child.stdout)).toEqual({
      refused: 'EACCES',
      records: [],
      content: 'old content'
    })
  })
})
