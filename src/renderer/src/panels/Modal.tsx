// A modal dialog on the native <dialog>: the browser traps focus, and the title names it for
// screen readers and tests (getByRole('dialog', { name })). Esc closes it here, on its own
// keydown: the browser's own Esc (a close request, answered by `cancel`) follows Chromium's
// close-watcher rules, tied to user activation, and in CI it left the Compare dialog open on two
// runs in a row. Other close requests still arrive as `cancel`. Closing gives the focus back to
// the control that opened it: the browser only does that for a dialog that closes while still in
// the page, and React removes ours. When that control went away with the click that opened the
// dialog (Compare with this node), the focus goes where `returnFocus` says, else where focus.ts
// puts it (the selected node, the composer): never on the page body.
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { keepFocus } from '../focus'
import { useGraphStore } from '../stores/graph-store'

export function Modal({
  title,
  onClose,
  children,
  wide = false,
  returnFocus
}: {
  title: string
  onClose: () => void
  children: ReactNode
  wide?: boolean
  /** Where the focus goes on close when the control that opened the dialog is gone. */
  returnFocus?: () => Element | null
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    const opener = document.activeElement
    if (dialog !== null && !dialog.open) dialog.showModal()
    return () => {
      dialog?.close()
      if (opener instanceof HTMLElement && opener.isConnected && opener !== document.body) {
        opener.focus()
      } else {
        keepFocus(returnFocus?.() ?? null, () => useGraphStore.getState().selectedId)
      }
    }
    // Once per dialog: the opener is the element focused when it opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return (
    <dialog
      ref={ref}
      className={wide ? 'modal modal--wide' : 'modal'}
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        // A field inside that uses Esc itself (and says so by preventDefault) keeps it.
        if (event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) {
          return
        }
        event.preventDefault()
        onClose()
      }}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
    >
      <h2 id={titleId} className="modal__title">
        {title}
      </h2>
      {children}
    </dialog>
  )
}
