// @vitest-environment happy-dom
// The one remote picker Share… and Shared sessions use: nothing to pick from one remote; from
// several, a labelled select showing the remote in use, whose choice is handed back.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { mountEachTest } from '../../../../test/support/react-mount'
import { RemotePicker } from './RemotePicker'

const mounted = mountEachTest()

describe('RemotePicker', () => {
  it('shows nothing when the workspace has one remote', () => {
    act(() =>
      mounted.root.render(<RemotePicker remotes={['origin']} remote="origin" onChange={() => {}} />)
    )
    expect(mounted.host.innerHTML).toBe('')
  })

  it('offers every remote, the one in use chosen, and hands back the one picked', () => {
    const picked: string[] = []
    act(() =>
      mounted.root.render(
        <RemotePicker
          remotes={['origin', 'backup']}
          remote="backup"
          onChange={(remote) => picked.push(remote)}
        />
      )
    )
    const select = mounted.host.querySelector('select')
    expect(mounted.host.querySelector('label')?.textContent).toContain('Remote')
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
