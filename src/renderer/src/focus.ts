// Where the keyboard focus goes when the control that had it goes away. After an undo, a branch
// switch or a dismissed notice, the button that was pressed is disabled or removed, and the
// browser drops the focus on the page body: a keyboard user then starts again from the top.
// These helpers put it somewhere that makes sense instead.

/** The graph node element of `id`, when React Flow has it mounted (it culls nodes out of view). */
export function nodeElement(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`)
}

/**
 * Focuses a graph node, waiting up to `frames` frames for it to mount (after a pan or a new
 * graph; a canvas mounting anew takes more). An arrow key's move past the nodes React Flow holds
 * (flow-window.ts) mounts its node only once the pan has moved the window, some frames later on
 * a loaded machine: three frames were not always enough at 900x700, and the focus was left on
 * the body. The tries end as soon as the node is there. Focus already inside the node (a Tab
 * from a clicked node to its fold badge, pressed before the frame came) is left where it is.
 */
export function focusNodeElement(id: string, frames = 30): void {
  let tries = frames
  const attemptFocus = () => {
    const element = nodeElement(id)
    if (element !== null) {
      if (!element.contains(document.activeElement)) element.focus({ preventScroll: true })
    } else if (--tries > 0) requestAnimationFrame(attemptFocus)
  }
  requestAnimationFrame(attemptFocus)
}

export function composerField(): HTMLTextAreaElement | null {
  return document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Prompt"]')
}

/** The selection bar's "Compare…", the control a compare starts from. */
export function compareButton(): HTMLButtonElement | null {
  return document.querySelector<HTMLButtonElement>('button[data-starts="compare"]')
}

function usable(element: Element | null): element is HTMLElement {
  return (
    element instanceof HTMLElement &&
    element.isConnected &&
    element !== document.body &&
    !(element as HTMLButtonElement).disabled
  )
}

/**
 * After an action that redraws the page: if the focus was lost (it is on the body), it goes back
 * to `from` when that is still there and enabled, else to the selected graph node (where the
 * action left the conversation), else to the composer. Runs once React has drawn the result.
 */
export function keepFocus(from: Element | null, selectedNodeId: () => string | null): void {
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      if (usable(document.activeElement)) return
      if (usable(from)) {
        from.focus()
        return
      }
      const selected = selectedNodeId()
      const node = selected === null ? null : nodeElement(selected)
      if (node !== null) node.focus({ preventScroll: true })
      else composerField()?.focus()
    })
  )
}
