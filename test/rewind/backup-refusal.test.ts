import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { historyPaths } from '../../src/core/files/history-paths'
import { makeWorkspace } from './fixture'

// A permission error is only real for a user the file system says no to: as root, the child
// runs as `nobody` (root ignores file modes); otherwise as the current user.
const NOBODY = 65534
const asNobody = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {}

// The child loads tsx and the sources from this checkout: a checkout `nobody` cannot reach (a
// clone inside a private folder, as `mktemp -d` makes) cannot run it, which says nothing of the
// refusal. Then the test is skipped, saying so.
const reachable =
  spawnSync(
    process.execPath,
    ['-e', 'require("fs").accessSync(process.argv[1])', require.resolve('tsx/package.json')],
    asNobody
  ).status === 0
if (!reachable) {
  console.log('backup refusal: skipped, user nobody cannot read this checkout (a private folder)')
}

describe('a backup that cannot be stored refuses the write', () => {
  it.runIf(reachable)(
    'answers EACCES for a read-only blob folder, writes nothing and records nothing',
    () => {
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
    }
  )
})
