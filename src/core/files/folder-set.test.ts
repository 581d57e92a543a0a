import { describe, expect, it } from 'vitest'
import { FolderSet } from './folder-set'

const sorted = (xs: string[]) => [...xs].sort()

describe('FolderSet', () => {
  it('finds the members at or below a path, and no sibling sharing its prefix', () => {
    const set = new FolderSet()
    for (const dir of ['', 'a', 'a/b', 'a/b/c', 'ab', 'x/y/z']) set.add(dir)
    expect(sorted(set.under('a'))).toEqual(['a', 'a/b', 'a/b/c'])
    expect(sorted(set.under('x'))).toEqual(['x/y/z'])
    expect(sorted(set.under(''))).toEqual(['', 'a', 'a/b', 'a/b/c', 'ab', 'x/y/z'])
    expect(set.under('a/b/c/file.ts')).toEqual([])
    expect(set.under('missing')).toEqual([])
  })

  it('forgets deleted members and the links that led only to them', () => {
    const set = new FolderSet()
    for (const dir of ['a/b/c', 'a/b/d', 'a']) set.add(dir)
    set.delete('a/b/c')
    expect(sorted(set.under('a'))).toEqual(['a', 'a/b/d'])
    set.delete('a/b/d')
    expect(set.under('a')).toEqual(['a'])
    set.delete('a')
    expect(set.under('')).toEqual([])
    expect(set.size).toBe(0)
    set.add('a/b/c')
    expect(set.under('a')).toEqual(['a/b/c'])
  })

  it('agrees with a scan of every member over random adds and deletes', () => {
    let seed = 7
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed % n
    }
    const set = new FolderSet()
    const model = new Set<string>()
    const names = ['a', 'b', 'ab', 'a.b']
    const pathOf = () =>
      Array.from({ length: 1 + random(4) }, () => names[random(names.length)]).join('/')
    for (let step = 0; step < 2000; step++) {
      const dir = pathOf()
      if (random(3) === 0) {
        set.delete(dir)
        model.delete(dir)
      } else {
        set.add(dir)
        model.add(dir)
      }
      const query = random(5) === 0 ? '' : pathOf()
      const expected = [...model].filter(
        (m) => query === '' || m === query || m.startsWith(`${query}/`)
      )
      expect(sorted(set.under(query))).toEqual(sorted(expected))
    }
  })
})
