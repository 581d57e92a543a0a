import { describe, expect, it } from 'vitest'
import { SeenFolders } from './seen-folders'

describe('SeenFolders', () => {
  it('names the folders a walk finds that the last look did not see, an empty one too', () => {
    const seen = new SeenFolders()
    expect(seen.walked('', ['', 'src', 'empty'], new Set())).toEqual(['src', 'empty'])
    // A walk of gen/ that appeared: gen/ and its folders are new; src/ is left as it was.
    expect(seen.walked('gen', ['gen', 'gen/sub'], new Set())).toEqual(['gen', 'gen/sub'])
    expect(seen.walked('', ['', 'src', 'empty', 'gen', 'gen/sub', 'out'], new Set())).toEqual([
      'out'
    ])
  })

  it('forgets a folder gone, so one made there again is new', () => {
    const seen = new SeenFolders()
    seen.walked('', ['', 'gen', 'gen/sub'], new Set())
    seen.gone('gen')
    expect(seen.walked('gen', ['gen'], new Set())).toEqual(['gen'])
  })

  it('takes no folder inside one that was there unread (past the room, a skip folder) for new', () => {
    const seen = new SeenFolders()
    seen.walked('', ['', 'node_modules'], new Set())
    const notRead = new Set(['node_modules', 'build/deep'])
    expect(
      seen.walked('', ['', 'node_modules', 'node_modules/pkg', 'build', 'build/deep/x'], notRead)
    ).toEqual(['build'])
  })
})
