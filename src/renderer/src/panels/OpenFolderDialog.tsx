// "Open folder…" in a browser (the desktop uses the system's dialog): a path field whose
// suggestions are the folders the main process finds under what is typed (only folders, never a
// .git, a bounded list), and the recent workspaces with their session counts. Opening one makes
// it the workspace at once; the main process refuses /, the home folder and anything unfit,
// saying why in the dialog (a notice would sit behind it, out of reach), and the workspace stays
// as it was.
import { useEffect, useId, useRef, useState } from 'react'
import { completeFolder, openWorkspace } from '../actions/workspace'
import { selectRunning, useAppStore } from '../stores/app-store'
import { Modal } from './Modal'
import { counted } from '../../../shared/counted'

function useCompletion(path: string) {
  const [state, setState] = useState<{ folders: string[]; more: boolean; problem: string | null }>({
    folders: [],
    more: false,
    problem: null
  })
  const latest = useRef(0)
  useEffect(() => {
    const ask = ++latest.current
    void completeFolder(path).then(({ completion, problem }) => {
      // Keys come faster than answers: only the answer to the latest path is shown.
      if (ask !== latest.current) return
      setState({
        folders: completion?.folders ?? [],
        more: completion?.truncated ?? false,
        problem
      })
    })
  }, [path])
  return state
}

export function OpenFolderDialog({ onClose }: { onClose: () => void }) {
  const recent = useAppStore((s) => s.recent)
  const running = useAppStore(selectRunning)
  const workspace = useAppStore((s) => s.info?.workspace ?? '')
  const [path, setPath] = useState(workspace === '' ? '/' : `${workspace}/`)
  const [opening, setOpening] = useState(false)
  /** Why the main process refused the folder last asked for; cleared by typing another. */
  const [refusal, setRefusal] = useState<string | null>(null)
  const { folders, more, problem } = useCompletion(path)
  const listId = useId()
  const field = useRef<HTMLInputElement>(null)
  const open = async (cwd: string) => {
    setOpening(true)
    setRefusal(null)
    if (await openWorkspace(cwd, setRefusal)) {
      onClose()
      return
    }
    setOpening(false)
    // Back to the path, to change it; the refusal describes the field.
    field.current?.focus()
  }
  const described = [
    problem === null ? null : `${listId}-problem`,
    refusal === null ? null : `${listId}-refusal`
  ]
    .filter((id) => id !== null)
    .join(' ')
  const typed = path.length > 1 ? path.replace(/\/+$/, '') : path
  return (
    <Modal title="Open folder" onClose={onClose} wide>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void open(typed)
        }}
      >
        <label className="field">
          <span>Folder</span>
          <input
            ref={field}
            type="text"
            value={path}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={described === '' ? undefined : described}
            onChange={(event) => {
              setPath(event.target.value)
              setRefusal(null)
            }}
          />
        </label>
        {problem !== null && (
          <p id={`${listId}-problem`} className="muted">
            {problem}
          </p>
        )}
        {refusal !== null && (
          <p id={`${listId}-refusal`} role="alert" className="callout callout--error">
            {refusal}
          </p>
        )}
        <ul className="folder-list" aria-label="Folders">
          {folders.map((folder) => (
            <li key={folder}>
              <button type="button" onClick={() => setPath(`${folder}/`)}>
                {folder}
              </button>
            </li>
          ))}
          {more && <li className="muted">More folders: type more of the name.</li>}
        </ul>
        <div className="modal__actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={opening || running}>
            Open
          </button>
        </div>
      </form>
      {recent.length > 0 && (
        <section aria-label="Recent workspaces">
          <h3>Recent</h3>
          <ul className="folder-list">
            {recent.map((r) => (
              <li key={r.cwd}>
                <button
                  type="button"
                  disabled={opening || running || r.current || r.problem !== null}
                  title={r.problem ?? r.cwd}
                  onClick={() => void open(r.cwd)}
                >
                  {r.cwd} · {r.problem === null ? counted(r.sessions, 'session') : 'cannot open'}
                  {r.current ? ' (open)' : ''}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Modal>
  )
}
