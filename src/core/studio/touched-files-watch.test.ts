// The watch behind the files marker, on real folders: it watches only the folders of the files it
// is given (bounded), sees a change to one of them, finds a touched file whose folder was made
// again, never watches outside the workspace, and lets every watch go when closed.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_WATCHED_FOLDERS, TouchedFilesWatch } from './touched-files-watch'

const open: TouchedFilesWatch[] = []
afterEach(() => {
  for (const watch of open.splice(0)) watch.close()
})

function workspace(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'rs-watch-')))
}

/** A watch on `root` and how many times it said something may have changed. */
function watching(root: string) {
  let changes = 0
  const watch = new TouchedFilesWatch(root, () => changes++)
  open.push(watch)
  return { watch, changes: () => changes }
}

describe('the touched files watch', () => {
  it('watches the folders of the touched files only, at most MAX_WATCHED_FOLDERS', () => {
    const root = workspace()
    for (const dir of ['a', 'b', 'untouched/deep']) mkdirSync(join(root, dir), { recursive: true })
    const { watch } = watching(root)
    watch.follow(['a/x.txt', 'a/y.txt', 'b/z.txt', 'top.txt'])
    expect(watch.folders()).toEqual(['', 'a', 'b'])
    const many = Array.from({ length: MAX_WATCHED_FOLDERS + 40 }, (_, i) => `d${i}/f.txt`)
    for (const path of many) mkdirSync(join(root, path, '..'))
    watch.follow(many)
    expect(watch.folders()).toHaveLength(MAX_WATCHED_FOLDERS)
  })

  it('says so when a touched file changes, not when another file of its folder does', async () => {
    const root = workspace()
    mkdirSync(join(root, 'src'))
    writeFileSync(join(root, 'src', 'app.py'), 'v1\n')
    const { watch, changes } = watching(root)
    watch.follow(['src/app.py'])
    writeFileSync(join(root, 'src', 'other.py'), 'not ours\n')
    writeFileSync(join(root, 'src', 'app.py'), 'v2\n')
    await expect.poll(changes, { timeout: 5_000 }).toBe(1)
  })

  it('follows a touched file whose folder is gone from the nearest folder still there', async () => {
    const root = workspace()
    const { watch, changes } = watching(root)
    watch.follow(['gone/sub/made.txt'])
    expect(watch.folders()).toEqual([''])
    mkdirSync(join(root, 'gone', 'sub'), { recursive: true })
    await expect.poll(changes, { timeout: 5_000 }).toBeGreaterThan(0)
    const seen = changes()
    // Now its own folder is watched: a write there is seen.
    expect(watch.folders()).toEqual(['gone/sub'])
    writeFileSync(join(root, 'gone', 'sub', 'made.txt'), 'hand made\n')
    await expect.poll(changes, { timeout: 5_000 }).toBeGreaterThan(seen)
  })

  it('watches nothing outside the workspace: no .. path, no absolute path, no symlink out', () => {
    const root = workspace()
    const outside = workspace()
    symlinkSync(outside, join(root, 'out'))
    const { watch } = watching(root)
    watch.follow(['../x.txt', `${outside}/x.txt`, 'a/../../x.txt', './x.txt'])
    expect(watch.folders()).toEqual([])
    // Through a symlink out: watched from the workspace, for the link's name, never beyond it.
    watch.follow(['out/x.txt'])
    expect(watch.folders()).toEqual([''])
  })

  it('lets every watch go when closed, and takes no new paths after', () => {
    const root = workspace()
    mkdirSync(join(root, 'a'))
    const { watch } = watching(root)
    watch.follow(['a/x.txt', 'y.txt'])
    expect(watch.folders()).toEqual(['', 'a'])
    watch.close()
    expect(watch.folders()).toEqual([])
    watch.follow(['a/x.txt'])
    expect(watch.folders()).toEqual([])
  })
})
