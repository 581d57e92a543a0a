// One temp folder per test run, removed when the run ends: tests make their workspaces, data
// homes and scripts with mkdtemp(tmpdir()), and many of them (and the processes they start, which
// inherit TMPDIR) cannot clean up after a failure or a kill. Pointing TMPDIR at a folder of the
// run's own keeps /tmp from filling up run after run. Used by vitest.config.ts and
// playwright.config.ts (their global setup and teardown).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const OWN = 'REWIND_STUDIO_TEST_TMP'

/** Called while the config loads: every worker and child process inherits the folder. */
export function useRunTempRoot(): string {
  const existing = process.env[OWN]
  if (existing !== undefined) return existing
  const root = mkdtempSync(join(tmpdir(), 'rs-test-run-'))
  // It stands in for /tmp, so it has /tmp's mode: a test that drops to another user (running a
  // child as `nobody` to meet a real permission error) must reach its folders and make tsx's cache.
  chmodSync(root, 0o1777)
  process.env[OWN] = root
  process.env.TMPDIR = root
  return root
}

/** Global teardown: the run's folder goes, with whatever the tests left in it. */
export function removeRunTempRoot(): void {
  const root = process.env[OWN]
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
}
