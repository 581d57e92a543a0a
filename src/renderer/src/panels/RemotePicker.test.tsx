// @vitest-environment happy-dom
// The one remote picker Share… and Shared sessions use: nothing to pick from one remote; from
// several, a labelled select showing the remote in use, whose choice is handed back.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RemotePicker } from './RemotePicker'

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true

let host: HTMLDivElement
let root: Root
beforeEach(() => {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
})
afterEach(() => {
  act(() => root.unmount())
  host.remove()
})

describe('RemotePicker', () => {
  it('shows nothing when the workspace has one remote', () => {
    act(() =>
      root.render(<RemotePicker remotes={['origin']} remote="origin" onChange={() => {}} />)
    )
    expect(host.innerHTML).toBe('')
  })

  it('offers every remote, the one in use chosen, and hands back the one picked', () => {
    const picked: string[] = []
    act(() =>
      root.render(
        <RemotePicker
          remotes={['origin', 'backup']}
          remote="backup"
          onChange={(remote) => picked.push(remote)}
        />
      )
    )
    const select = host.querySelector('select')
    expect(host.querySelector('label')?.textContent).toContain('Remote')
    expect([...(select?.options ?? [])].map((o) => o.value)).toEqual(['origin', 'backup'])
    expect(select?.value).toBe('backup')
    act(() => {
      if (select === null) return
      select.value = 'origin'
      select.dispatchEvent(new Event('change', { bubbles: true }))
    })
    expect(picked).toEqual(['origin'])
  })
})
