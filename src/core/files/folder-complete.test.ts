// The "Open folder…" field's completion (core/files/folder-complete.ts) on a real temp tree:
// folders only, never a .git, bounded, and refusals for what names no folder.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { completeFolder, MAX_FOLDER_COMPLETIONS } from './folder-complete'

function tree(): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'rs-complete-')))
  for (const dir of ['alpha', 'alps', 'beta', '.hidden', '.git', '.GIT', 'alpha/.git/objects'])
    mkdirSync(join(base, dir), { recursive: true })
  writeFileSync(join(base, 'alpine.txt'), 'a file, not a folder\n')
  return base
}

const codeOf = (run: () => unknown) => {
  try {
    run()
    return null
  } catch (error) {
    return (error as { code?: string }).code ?? 'no code'
  }
}

describe('completeFolder', () => {
  it('lists the folders whose names start as the path ends, and nothing else', () => {
    const base = tree()
    expect(completeFolder(`${base}/al`)).toEqual({
      parent: base,
      folders: [join(base, 'alpha'), join(base, 'alps')],
      truncated: false
    })
    expect(completeFolder(`${base}/`).folders).toEqual([
      join(base, 'alpha'),
      join(base, 'alps'),
      join(base, 'beta')
    ])
  })

  it('shows hidden folders only for a name starting with a dot, and never a .git in any case', () => {
    const base = tree()
    expect(completeFolder(`${base}/.`).folders).toEqual([join(base, '.hidden')])
    expect(codeOf(() => completeFolder(`${base}/alpha/.git/`))).toBe('refused')
    expect(codeOf(() => completeFolder(`${base}/.GIT/obj`))).toBe('refused')
  })

  it('refuses a relative path and a parent that is no folder', () => {
    const base = tree()
    expect(codeOf(() => completeFolder('alpha'))).toBe('invalid_payload')
    expect(codeOf(() => completeFolder(`${base}/missing/x`))).toBe('not_found')
    expect(codeOf(() => completeFolder(`${base}/alpine.txt/x`))).toBe('not_found')
  })

  it('lists at most MAX_FOLDER_COMPLETIONS and says there were more', () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'rs-complete-many-')))
    for (let i = 0; i < MAX_FOLDER_COMPLETIONS + 5; i++) mkdirSync(join(base, `d${i}`))
    const many = completeFolder(`${base}/d`)
    expect(many.folders).toHaveLength(MAX_FOLDER_COMPLETIONS)
    expect(many.truncated).toBe(true)
  })
})
