import { describe, expect, it } from 'vitest'
import { FileStateTable } from './file-state'

describe('FileStateTable', () => {
  it('refuses a file it never saw, and one that changed since', () => {
    const table = new FileStateTable()
    expect(table.canEdit('/ws/a.py')).toBe(false)
    table.markRead('/ws/a.py', 'x = 1\n')
    expect(table.canEdit('/ws/a.py')).toBe(true)
    expect(table.isUnchanged('/ws/a.py', 'x = 2\n')).toBe(false)
    expect(table.isUnchanged('/ws/a.py', 'x = 1\n')).toBe(true)
  })

  it('a write counts as seen, with the written content', () => {
    const table = new FileStateTable()
    table.markWritten('/ws/b.py', 'new\n')
    expect(table.canEdit('/ws/b.py')).toBe(true)
    expect(table.isUnchanged('/ws/b.py', 'new\n')).toBe(true)
  })

  it('normalises paths, forgets one file, keeps only what it is rehydrated with', () => {
    const table = new FileStateTable()
    table.markRead('/ws/src/../a.py', '')
    table.markRead('/ws/b.py', '')
    expect(table.canEdit('/ws/a.py')).toBe(true)
    table.forget('/ws/a.py')
    expect(table.canEdit('/ws/a.py')).toBe(false)
    expect(table.canEdit('/ws/b.py')).toBe(true)
    table.rehydrate(() => new Map([['/ws/c/../a.py', 'hash']]))
    expect(table.canEdit('/ws/b.py')).toBe(false)
    expect(table.canEdit('/ws/a.py')).toBe(true)
  })

  it('works out what it is rehydrated with when first asked, once', () => {
    const table = new FileStateTable()
    let walks = 0
    table.rehydrate(() => {
      walks++
      return new Map([['/ws/a.py', 'hash']])
    })
    expect(walks).toBe(0)
    expect(table.canEdit('/ws/a.py')).toBe(true)
    expect(table.canEdit('/ws/b.py')).toBe(false)
    expect(walks).toBe(1)
  })
})
