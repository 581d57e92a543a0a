import { describe, expect, it } from 'vitest'
import { groupByFolder } from './file-groups'

const files = (...paths: string[]) => paths.map((path) => ({ path }))

describe('groupByFolder', () => {
  it('nests files by folder, counting each folder’s files under it', () => {
    const root = groupByFolder(files('README.md', 'src/a.ts', 'src/lib/b.ts', 'src/lib/c.ts'))
    expect(root.count).toBe(4)
    expect(root.files.map((f) => f.path)).toEqual(['README.md'])
    const [src] = root.folders
    expect(src).toMatchObject({ path: 'src/', name: 'src/', count: 3 })
    expect(src!.files.map((f) => f.path)).toEqual(['src/a.ts'])
    expect(src!.folders.map((f) => [f.name, f.count])).toEqual([['lib/', 2]])
  })

  it('joins a folder holding only one folder with it, so a deep path is one row', () => {
    const root = groupByFolder(files('gen/out/v1/a.py', 'gen/out/v1/b.py', 'gen/out/v2/c.py'))
    expect(root.folders.map((f) => f.name)).toEqual(['gen/out/'])
    expect(root.folders[0]!.folders.map((f) => [f.path, f.count])).toEqual([
      ['gen/out/v1/', 2],
      ['gen/out/v2/', 1]
    ])
  })

  it('puts 3,000 files in 3 rows of folders, sorted by name', () => {
    const many = ['z', 'a', 'm'].flatMap((top) =>
      Array.from({ length: 1000 }, (_, i) => `${top}/f${i}.txt`)
    )
    const root = groupByFolder(files(...many))
    expect(root.folders.map((f) => [f.name, f.count])).toEqual([
      ['a/', 1000],
      ['m/', 1000],
      ['z/', 1000]
    ])
    expect(root.files).toEqual([])
  })
})
