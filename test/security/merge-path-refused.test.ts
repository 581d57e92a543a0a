// A merge writes only where a restore may: a session file is data anyone can write, and a record
// of the branch brought in naming a path in a `.git` folder, or leading out of the workspace,
// refuses the whole merge before anything is read or written. The copies a merge makes of the
// user's files for git merge-file are private (0600 in a 0700 folder of the data home) and gone
// when it ends.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { prepareMerge } from '../../src/core/merge/merge'
import { MergeError } from '../../src/core/merge/merge-plan'
import { sessionsClosedAfterEach } from '../rewind/fixture'

const { session } = sessionsClosedAfterEach()

describe('a merge of a branch whose records name a path no restore may touch', () => {
  for (const path of ['.git/config', 'vendor/lib/.git/hooks/pre-commit', '../outside.txt']) {
    it(`refuses ${path} with nothing changed`, async () => {
      const s = await session({ 'a.txt': 'a\n' })
      s.prompt('base')
      await s.write('a.txt', 'base\n')
      s.reply('ok')
      const theirs = s.prompt('theirs')
      await s.write('a.txt', 'theirs\n')
      const blob = s.store.tree().fileChanges(theirs)[0]?.after ?? null
      // A hand-made record on their branch, as a crafted session file would hold it.
      s.store.appendFileChange({
        checkpointUuid: theirs,
        path,
        before: null,
        after: blob,
        source: 'Write'
      })
      const theirEnd = s.reply('ok')
      // The conversation only: a restore of the files would refuse the record itself.
      await s.engine.rewind(theirs, 'conversation')
      s.prompt('ours')
      s.reply('ok')
      const log = readFileSync(s.store.file, 'utf8')
      const before = s.read('a.txt')
      const ws = {
        tree: () => s.store.tree(),
        leafUuid: () => s.store.leafUuid,
        engine: s.engine,
        space: s.history
      }
      const refused = prepareMerge(ws, { fromUuid: theirEnd, files: true })
      await expect(refused).rejects.toThrow(MergeError)
      await expect(refused).rejects.toThrow(/may not touch/)
      expect(readFileSync(s.store.file, 'utf8')).toBe(log)
      expect(s.read('a.txt')).toBe(before)
      const scratch = join(s.history.paths.root, 'merging')
      expect(existsSync(scratch) ? readdirSync(scratch) : []).toEqual([])
      if (existsSync(scratch)) expect(statSync(scratch).mode & 0o777).toBe(0o700)
    })
  }
})
