import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ensurePrivateDir, writePrivateFileSync } from './private-files'

const modeOf = (path: string) => statSync(path).mode & 0o7777

describe('private folders and files', () => {
  it('makes each missing folder 0700', () => {
    const base = mkdtempSync(join(tmpdir(), 'rs-private-'))
    ensurePrivateDir(join(base, 'a', 'b', 'c'))
    expect(['a', 'a/b', 'a/b/c'].map((p) => modeOf(join(base, p)))).toEqual([0o700, 0o700, 0o700])
    expect(modeOf(base)).toBe(0o700) // mkdtemp's own; left alone
  })

  it('takes group and other bits from an existing folder, keeping the owner’s', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'rs-private-')), 'home')
    mkdirSync(dir)
    chmodSync(dir, 0o1775)
    ensurePrivateDir(dir)
    expect(modeOf(dir)).toBe(0o1700)
  })

  it('writes a file 0600, one left behind with other bits included', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rs-private-')), 'settings.json.tmp')
    writeFileSync(file, 'old')
    chmodSync(file, 0o644)
    writePrivateFileSync(file, 'new')
    expect(readFileSync(file, 'utf8')).toBe('new')
    expect(modeOf(file)).toBe(0o600)
  })
})
