// A modal dialog on the native <dialog>: the browser traps focus, Esc cancels, and the title names
// it for screen readers and tests (getByRole('dialog', { name })). Closing gives the focus back to
// the control that opened it: the browser only does that for a dialog that closes while still in
// the page, and React removes ours.
import { useEffect, useId, useRef, type ReactNode } from 'react'

export function Modal({
  title,
  onClose,
  children,
  wide = false
}: {
  title: string
  onClose: () => void
  children: ReactNode
  wide?: boolean
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    const opener = document.activeElement
    if (dialog !== null && !dialog.open) dialog.showModal()
    return () => {
      dialog?.close()
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus()
    }
  }, [])
  return (
    <dialog
      ref={ref}
      className={wide ? 'modal modal--wide' : 'modal'}
      aria-labelledby={titleId}
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
