// Errors and warnings (role alert) under the header, until dismissed. Only the newest is shown
// whole: the earlier ones (at most four more, app-store's bound) fold into one line, "Show 2
// earlier notices", so old notices never push the explorer down (three took 115 px). Dismissing
// one moves the focus to the next notice's Dismiss (or the previous one's), and when none is
// left, on to the selected node or the composer: never onto the page body.
import { useRef, useState } from 'react'
import { keepFocus } from '../focus'
import { useGraphStore } from '../stores/graph-store'
import { selectNotices, useAppStore, type Notice } from '../stores/app-store'
import { dismissNotice } from '../actions/notices'
import { counted } from '../../../shared/counted'

export function Notices() {
  const notices = useAppStore(selectNotices)
  const [showEarlier, setShowEarlier] = useState(false)
  const list = useRef<HTMLElement>(null)
  const selected = () => useGraphStore.getState().selectedId
  const dismissAt = (notice: Notice) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('[data-dismiss]') ?? [])]
    const index = buttons.findIndex((button) => button.dataset.dismiss === String(notice.id))
    dismissNotice(notice)
    // The button list still holds the dismissed notice's: its neighbours are index ± 1.
    keepFocus(buttons[index + 1] ?? buttons[index - 1] ?? null, selected)
  }
  const newest = notices.at(-1)
  const earlier = notices.slice(0, -1)
  // Nothing earlier left to show: the next ones start folded again.
  if (showEarlier && earlier.length === 0) setShowEarlier(false)
  const shown = showEarlier ? notices : newest === undefined ? [] : [newest]
  if (newest === undefined) return null
  return (
    <section className="notices" aria-label="Notices" ref={list}>
      {earlier.length > 0 && (
        <div className="notices__earlier">
          <button
            type="button"
            className="link"
            aria-expanded={showEarlier}
            onClick={() => setShowEarlier(!showEarlier)}
          >
            {showEarlier
              ? `Hide ${counted(earlier.length, 'earlier notice')}`
              : `Show ${counted(earlier.length, 'earlier notice')}`}
          </button>
          <button
            type="button"
            className="link"
            onClick={() => {
              for (const notice of notices) dismissNotice(notice)
              setShowEarlier(false)
              keepFocus(null, selected)
            }}
          >
            Dismiss all
          </button>
        </div>
      )}
      {shown.map((notice) => (
        <div
          key={notice.id}
          className={`callout callout--${notice.level}`}
          role={notice.level === 'info' ? 'status' : 'alert'}
        >
          <span>{notice.message}</span>
          <button
            type="button"
            className="link"
            data-dismiss={notice.id}
            onClick={() => dismissAt(notice)}
          >
            Dismiss
          </button>
        </div>
      ))}
    </section>
  )
}
