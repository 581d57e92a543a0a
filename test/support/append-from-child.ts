// Lines appended to a session file by another process, as the tool that writes it would: what a
// reader following the file must notice (fs events and polling come from outside this process).
import { spawnSync } from 'node:child_process'
import { expect } from 'vitest'

export function appendFromChild(file: string, text: string): void {
  const child = spawnSync(
    process.execPath,
    ['-e', 'require("fs").appendFileSync(process.argv[1], process.argv[2])', file, text],
    { encoding: 'utf8' }
  )
  expect(child.status, child.stderr).toBe(0)
}
