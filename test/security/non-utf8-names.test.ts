// Finding 9 (part): "Files with non-UTF-8 names that Bash changes are skipped silently (the docs
// promise never): track them or list them as not tracked."
//
// Real file history over a real workspace, real commands (sh) making, changing and removing
// files whose names hold bytes that are not UTF-8: each change is listed as not tracked, with
// the name's bad bytes written \xHH; files with good names are tracked beside them as before.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type FileChange, FileHistory } from '../../src/core/files/file-history'

const REASON = 'its name is not valid UTF-8, and file history records UTF-8 names only'

const open: FileHistory[] = []
afterEach(async () => {
  for (const history of open.splice(0)) await history.close()
})

async function workspace() {
  const base = mkdtempSync(join(tmpdir(), 'rs-names-'))
  const cwd = join(base, 'ws')
  mkdirSync(cwd)
  const records: FileChange[] = []
  const history = await FileHistory.open({
    home: join(base, 'home'),
    cwd,
    sessionId: 's1',
    log: { appendFileChanges: (c: readonly FileChange[]) => records.push(...c) }
  })
  open.push(history)
  history.beginCheckpoint('p1')
  // printf turns \377 into the byte 0xFF: a name no UTF-8 decoder accepts.
  const sh = async (command: string) => {
    await history.beforeCommand('Bash')
    execFileSync('bash', ['-c', command], { cwd })
    return history.afterCommand('Bash')
  }
  return { records, sh }
}

const untracked = (...paths: string[]) => paths.map((path) => ({ path, reason: REASON }))

describe('a command changing files whose names are not UTF-8', () => {
  it('lists each creation, change and removal as not tracked', async () => {
    const { records, sh } = await workspace()
    expect(await sh(`echo 1 > "$(printf 'bad\\377.txt')"; echo ok > good.txt`)).toEqual({
      created: ['good.txt'],
      modified: [],
      deleted: [],
      untracked: untracked('bad\\xFF.txt'),
      notBackedUp: [],
      warnings: [],
      unknownOrigin: []
    })
    expect(records.map((r) => r.path)).toEqual(['good.txt'])
    expect((await sh(`echo 2 >> "$(printf 'bad\\377.txt')"`)).untracked).toEqual(
      untracked('bad\\xFF.txt')
    )
    expect((await sh('echo untouched')).untracked).toEqual([])
    expect((await sh(`rm "$(printf 'bad\\377.txt')"`)).untracked).toEqual(untracked('bad\\xFF.txt'))
  })

  it('sees files inside a folder whose name is not UTF-8, when made and when changed later', async () => {
    const { sh } = await workspace()
    const folder = `"$(printf 'dir\\376')"`
    expect(
      (
        await sh(
          `mkdir -p ${folder}/sub && echo 1 > ${folder}/a.txt && echo 1 > ${folder}/sub/b.txt`
        )
      ).untracked
    ).toEqual(untracked('dir\\xFE/a.txt', 'dir\\xFE/sub/b.txt'))
    expect((await sh(`echo 2 > ${folder}/sub/b.txt`)).untracked).toEqual(
      untracked('dir\\xFE/sub/b.txt')
    )
  })

  it('sees them in a folder made by the same command, and keeps partial names apart', async () => {
    const { sh } = await workspace()
    // \xC3 alone is half of a two-byte character; "é" whole is fine and tracked.
    const result = await sh(`mkdir new && echo 1 > "new/$(printf 'caf\\303')" && echo 1 > new/café`)
    expect(result.created).toEqual(['new/café'])
    expect(result.untracked).toEqual(untracked('new/caf\\xC3'))
  })
})
