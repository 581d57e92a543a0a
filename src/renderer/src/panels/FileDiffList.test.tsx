// @vitest-environment happy-dom
// A 3,000-file rewind preview is three folder rows, not 3,000 file rows: a folder's files are
// drawn once it is opened. A short list stays flat.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { mountEachTest } from '../../../../test/support/react-mount'
import type { PreviewFile } from '../../../shared/views'
import { FileDiffList } from './FileDiffList'

const file = (path: string): PreviewFile => ({ path, diff: null, outsideChange: false })

const mounted = mountEachTest()

const summaries = () => [...mounted.host.querySelectorAll('summary')].map((s) => s.textContent)

describe('FileDiffList', () => {
  it('lists 3,000 files as their folders, each folded, its files drawn when opened', () => {
    const files = ['gen/a', 'gen/b', 'src'].flatMap((folder) =>
      Array.from({ length: 1000 }, (_, i) => file(`${folder}/f${i}.py`))
    )
    act(() => mounted.root.render(<FileDiffList files={files} />))
    expect(summaries()).toEqual(['gen/ 2,000 files', 'src/ 1,000 files'])
    const gen = mounted.host.querySelector('details')!
    act(() => {
      gen.open = true
      gen.dispatchEvent(new Event('toggle'))
    })
    expect(summaries()).toEqual([
      'gen/ 2,000 files',
      'a/ 1,000 files',
      'b/ 1,000 files',
      'src/ 1,000 files'
    ])
    expect(mounted.host.querySelectorAll('code')).toHaveLength(4)
  })

  it('keeps a short list flat', () => {
    act(() => mounted.root.render(<FileDiffList files={[file('gen/a.py'), file('README.md')]} />))
    expect(summaries()).toEqual(['gen/a.py', 'README.md'])
  })
})
