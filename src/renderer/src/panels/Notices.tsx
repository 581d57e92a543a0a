// Errors and warnings (role alert) under the header, until dismissed.
import { selectNotices, useAppStore } from '../stores/app-store'

const selectDismiss = (s: ReturnType<typeof useAppStore.getState>) => s.dismissNotice

export function Notices() {
  const notices = useAppStore(selectNotices)
  const dismiss = useAppStore(selectDismiss)
  return (
    <div className="notices">
      {notices.map((notice) => (
        <div
          key={notice.id}
          className={`callout callout--${notice.level}`}
          role={notice.level === 'info' ? 'status' : 'alert'}
        >
          <span>{notice.message}</span>
          <button type="button" className="link" onClick={() => dismiss(notice.id)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  )
}
