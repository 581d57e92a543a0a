// Bring into this branch…: a node of another branch brought into the branch the conversation is
// on (core/merge). Its conclusions (the exploration's report, or a summary with the user's
// instructions) and/or its files: the preview lists every file with what the other branch did
// and whether it merges cleanly; a conflict shows both sides side by side and asks for this
// branch's, the other's, or an edited result. Nothing is written until "Bring in", which needs a
// choice for every conflict; the merge is then one step Undo takes back.
import { useEffect, useRef, useState } from 'react'
import type { MergePreviewFile, MergeResolution } from '../../../shared/merge-views'
import type { GraphNode } from '../../../shared/views'
import {
  type MergeAskState,
  type MergePreviewState,
  bringIn,
  loadMergePreview
} from '../actions/merge'
import { selectRunning, useAppStore } from '../stores/app-store'
import { Modal } from './Modal'

const CONFLICT_WORDS: Record<NonNullable<MergePreviewFile['conflict']>, string> = {
  content: 'both changed the same lines',
  'added-both': 'both added it, differently',
  'deleted-here': 'deleted here, changed there',
  'deleted-there': 'changed here, deleted there',
  binary: 'a binary file both changed',
  'too-large': 'too large to merge line by line',
  'no-git': 'both changed it, and git is not installed to merge it'
}

type Choice = { take: 'ours' } | { take: 'theirs' } | { take: 'edited'; content: string }

function sideText(text: string | null | undefined, absent: string): string {
  return text === null || text === undefined ? absent : text
}

function ConflictFile({
  file,
  choice,
  onChoose
}: {
  file: MergePreviewFile
  choice: Choice | undefined
  onChoose: (choice: Choice) => void
}) {
  const name = `Resolution for ${file.path}`
  const none = file.conflict === 'binary' ? '(binary file)' : '(no file)'
  return (
    <div role="group" aria-label={`Conflict in ${file.path}`}>
      <div className="merge-sides">
        <section aria-label={`This branch’s ${file.path}`}>
          <h4>This branch</h4>
          <pre>{sideText(file.ours, none)}</pre>
        </section>
        <section aria-label={`Brought-in ${file.path}`}>
          <h4>Brought in</h4>
          <pre>{sideText(file.theirs, none)}</pre>
        </section>
      </div>
      <div className="merge-choice" role="radiogroup" aria-label={name}>
        <label>
          <input
            type="radio"
            name={name}
            checked={choice?.take === 'ours'}
            onChange={() => onChoose({ take: 'ours' })}
          />
          Keep this branch’s
        </label>
        <label>
          <input
            type="radio"
            name={name}
            checked={choice?.take === 'theirs'}
            onChange={() => onChoose({ take: 'theirs' })}
          />
          Take the brought-in
        </label>
        {file.marked != null && (
          <label>
            <input
              type="radio"
              name={name}
              checked={choice?.take === 'edited'}
              onChange={() => onChoose({ take: 'edited', content: file.marked ?? '' })}
            />
            Edit the result
          </label>
        )}
      </div>
      {choice?.take === 'edited' && (
        <textarea
          className="merge-edit"
          aria-label={`Merged ${file.path}`}
          value={choice.content}
          onChange={(event) => onChoose({ take: 'edited', content: event.target.value })}
        />
      )}
    </div>
  )
}

export function MergeDialog({ node, onClose }: { node: GraphNode; onClose: () => void }) {
  const [files, setFiles] = useState(true)
  const [turn, setTurn] = useState(false)
  const [conversation, setConversation] = useState(true)
  const [instructions, setInstructions] = useState('')
  const [preview, setPreview] = useState<MergePreviewState>({ state: 'loading' })
  const [choices, setChoices] = useState<Map<string, Choice>>(new Map())
  const [applying, setApplying] = useState(false)
  const running = useAppStore(selectRunning)
  const ask: MergeAskState = { nodeId: node.id, files, turn: files && turn }
  // Only the answer to the latest request is shown (a box ticked twice quickly).
  const request = useRef(0)
  const load = (nextFiles: boolean, nextTurn: boolean) => {
    const id = ++request.current
    void loadMergePreview({ nodeId: node.id, files: nextFiles, turn: nextFiles && nextTurn }).then(
      (loaded) => {
        if (request.current === id) setPreview(loaded)
      }
    )
  }
  const reload = (nextFiles: boolean, nextTurn: boolean) => {
    setFiles(nextFiles)
    setTurn(nextTurn)
    setPreview({ state: 'loading' })
    setChoices(new Map())
    load(nextFiles, nextTurn)
  }
  // The preview of the files, asked for as the dialog opens.
  useEffect(() => {
    load(true, false)
    // Once per dialog: later changes reload from their handlers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const ready = preview.state === 'ready' ? preview.preview : null
  const conflicts = ready?.files.filter((f) => f.status === 'conflict') ?? []
  const unresolved = conflicts.filter((f) => !choices.has(f.path)).length
  // What there is none of to bring is not offered: its box unticked and disabled, saying why.
  const conclusionsHere = ready?.conversation.source === 'here'
  const noFiles =
    files && ready !== null && ready.files.length === 0 && ready.unmergeable.length === 0
  const bringsConversation = conversation && !conclusionsHere
  const nothing = !bringsConversation && (ready === null || ready.files.length === 0)
  const choose = (path: string, choice: Choice) =>
    setChoices((old) => new Map(old).set(path, choice))
  const apply = async () => {
    setApplying(true)
    const resolutions: MergeResolution[] = [...choices].map(([path, c]) => ({ path, ...c }))
    const done = await bringIn(ask, bringsConversation ? { instructions } : null, resolutions)
    if (done) onClose()
    else setApplying(false)
  }
  return (
    <Modal title="Bring into this branch" onClose={onClose} wide>
      <p>
        Brings what “{node.title || '(empty)'}” learned and built into the branch the conversation
        is on. Nothing changes until you confirm; Undo takes it back.
      </p>
      <label className="field field--inline">
        <input
          type="checkbox"
          checked={bringsConversation}
          disabled={conclusionsHere}
          onChange={(event) => setConversation(event.target.checked)}
        />
        <span>
          {conclusionsHere
            ? 'Its conclusions: this branch holds them already (its report, or an earlier merge of it)'
            : 'Its conclusions, as a note the model reads from now on'}
        </span>
      </label>
      {bringsConversation && ready !== null && ready.conversation.source === 'report' && (
        <p className="muted">The exploration’s own report is brought in.</p>
      )}
      {conversation && ready !== null && ready.conversation.source === 'summary' && (
        <label className="field">
          <span>A summary of that branch is made. Focus it on (optional):</span>
          <textarea
            aria-label="Summary instructions"
            value={instructions}
            onChange={(event) => setInstructions(event.target.value)}
          />
        </label>
      )}
      <label className="field field--inline">
        <input
          type="checkbox"
          checked={files && !noFiles}
          disabled={noFiles && !turn}
          onChange={(event) => reload(event.target.checked, turn)}
        />
        <span>
          {noFiles && !turn
            ? 'Its files: none to bring in (this branch has them already)'
            : 'Its files, merged with the files here'}
        </span>
      </label>
      {files && node.kind === 'turn' && (
        <label className="field field--inline">
          <input
            type="checkbox"
            checked={turn}
            onChange={(event) => reload(files, event.target.checked)}
          />
          <span>Only the changes of this turn</span>
        </label>
      )}
      {preview.state === 'loading' && <p className="muted">Looking at the files…</p>}
      {preview.state === 'failed' && (
        <p role="alert" className="error-text">
          {preview.message}
        </p>
      )}
      {files && ready !== null && !(noFiles && !turn) && (
        <>
          <p>
            {ready.files.length === 0
              ? 'No file to bring in: this branch has the other one’s files already.'
              : `${ready.clean} file${ready.clean === 1 ? ' merges' : 's merge'} cleanly, ${ready.conflicts} conflict${ready.conflicts === 1 ? '' : 's'}.`}
          </p>
          <ul className="merge-files" aria-label="Files to bring in">
            {ready.files.map((file) => (
              <li key={file.path} aria-label={file.path}>
                <span>
                  {file.change}{' '}
                  <code>
                    {file.renamedFrom === undefined
                      ? file.path
                      : `${file.renamedFrom} → ${file.path}`}
                  </code>{' '}
                  {file.renamedHere !== undefined
                    ? `(renamed here from ${file.renamedHere}, ${file.similarity ?? 100}% similar) `
                    : file.renamedFrom !== undefined && file.similarity !== undefined
                      ? `(${file.similarity}% similar) `
                      : ''}
                </span>
                <span
                  className={
                    file.status === 'conflict'
                      ? 'merge-file__status--conflict'
                      : 'merge-file__status--clean'
                  }
                >
                  {file.status === 'clean'
                    ? 'merges cleanly'
                    : `conflict: ${CONFLICT_WORDS[file.conflict ?? 'content']}`}
                </span>
                {file.status === 'conflict' && (
                  <ConflictFile
                    file={file}
                    choice={choices.get(file.path)}
                    onChoose={(choice) => choose(file.path, choice)}
                  />
                )}
              </li>
            ))}
            {ready.unmergeable.map((u) => (
              <li key={`unmergeable:${u.path}`}>
                <code>{u.path}</code> left alone: {u.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {conclusionsHere && noFiles && !turn && (
        <p role="status">
          Nothing to bring in: this branch has its conclusions and its files already.
        </p>
      )}
      <div className="modal__actions">
        {unresolved > 0 && (
          <span className="muted">
            {unresolved} conflict{unresolved === 1 ? '' : 's'} to resolve
          </span>
        )}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={applying || running || ready === null || unresolved > 0 || nothing}
          onClick={() => void apply()}
        >
          Bring in
        </button>
      </div>
    </Modal>
  )
}
