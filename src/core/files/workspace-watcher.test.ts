// The watcher's flush: a barrier through the one inotify queue, so the dirty paths taken after it
// hold every change made before it.
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WorkspaceWatcher } from './workspace-watcher'

const open: WorkspaceWatcher[] = []
afterEach(() => {
  for (const watcher of open.splice(0)) watcher.close()
})

async function setup() {
  const base = mkdtempSync(join(tmpdir(), 'rs-watch-'))
  const root = join(base, 'ws')
  const barrierDir = join(base, 'barrier')
  mkdirSync(root)
  const watcher = new WorkspaceWatcher(root, barrierDir)
  open.push(watcher)
  await watcher.start()
  watcher.watchDirs([''])
  return { root, barrierDir, watcher }
}

describe('WorkspaceWatcher.flush', () => {
  it('makes every change made before it show in the next take, flush after flush', async () => {
    const { root, watcher } = await setup()
    for (let i = 0; i < 100; i++) {
      // New files and writes to one file, so the events are of both kinds.
      const name = i % 2 === 0 ? `new-${i}.txt` : 'same.txt'
      writeFileSync(join(root, name), `${i}\n`)
      await watcher.flush()
      const taken = watcher.take()
      expect(taken === 'everything' ? taken : [...taken]).toEqual([name])
    }
  })

  it('keeps one private marker while open, and none once closed', async () => {
    const { barrierDir, watcher } = await setup()
    for (let i = 0; i < 5; i++) await watcher.flush()
    const markers = readdirSync(barrierDir)
    expect(markers).toHaveLength(1)
    expect(statSync(join(barrierDir, markers[0] ?? '')).mode & 0o777).toBe(0o600)
    watcher.close()
    expect(readdirSync(barrierDir)).toEqual([])
  })
})
