// Errors and warnings (role alert) under the header, until dismissed. Dismissing one moves the
// focus to the next notice's Dismiss (or the previous one's), and when none is left, on to the
// selected node or the composer: never onto the page body.
import { useRef } from 'react'
import { keepFocus } from '../focus'
import { useGraphStore } from '../stores/graph-store'
import { selectNotices, useAppStore } from '../stores/app-store'

const selectDismiss = (s: ReturnType<typeof useAppStore.getState>) => s.dismissNotice

export function Notices() {
  const notices = useAppStore(selectNotices)
  const dismiss = useAppStore(selectDismiss)
  const list = useRef<HTMLDivElement>(null)
  const dismissAt = (index: number, id: number) => {
    dismiss(id)
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('button') ?? []
    // The button list still holds the dismissed notice's: its neighbours are index ± 1.
    const next = buttons[index + 1] ?? buttons[index - 1] ?? null
    keepFocus(next, () => useGraphStore.getState().selectedId)
  }
  return (
    <div className="notices" ref={list}>
      {notices.map((notice, index) => (
        <div
          key={notice.id}
          className={`callout callout--${notice.level}`}
          role={notice.level === 'info' ? 'status' : 'alert'}
        >
          <span>{notice.message}</span>
          <button type="button" className="link" onClick={() => dismissAt(index, notice.id)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  )
}
