// Share…: which part of the tree and which remote, then what would leave the machine before
// anything does: the size, the turns, files and backups, what is new since the last push, and the
// redaction preview (every piece that looks like a key, as it is sent, where it was). Push sends
// it under refs/rewind-studio/sessions/<id>; the user's branches are never touched.
import { useEffect, useState } from 'react'
import type { SharePreview } from '../../../shared/share-views'
import { formatBytes } from '../../../shared/prompt-limit'
import {
  type ShareChoice,
  type SharePreviewState,
  loadSharePreview,
  pushShare
} from '../actions/share'
import { selectRunning, useAppStore } from '../stores/app-store'
import { selectSelectedNode, useGraphStore } from '../stores/graph-store'
import { Modal } from './Modal'
import { RemotePicker } from './RemotePicker'
import { counted } from '../../../shared/counted'

type ScopeChoice = 'all' | 'active' | 'selected'

function Summary({ preview }: { preview: SharePreview }) {
  return (
    <section aria-label="What is sent" className="share__summary">
      <p>
        {preview.scope === 'all' ? 'The whole tree' : 'One branch'}:{' '}
        {counted(preview.turns, 'turn')}, {counted(preview.files, 'file')},{' '}
        {counted(preview.backups, 'backup')}, {formatBytes(preview.bytes)}, to{' '}
        <code>{preview.remote}</code> as <code>{preview.ref}</code>.
      </p>
      <p>
        {preview.sharedBefore === null
          ? `First push of this session: ${counted(preview.newObjects, 'object')}, ${formatBytes(preview.newBytes)} before compression.`
          : `New since the last push: ${counted(preview.newObjects, 'object')}, ${formatBytes(preview.newBytes)} before compression.`}
        {preview.code !== null &&
          ` The code is on ${preview.code.branch ?? 'a detached HEAD'} at ${preview.code.commit.slice(0, 12)}.`}
      </p>
      {preview.missingBackups > 0 && (
        <p className="callout callout--warning">
          {counted(preview.missingBackups, 'backup')} the session names were pruned here: those
          files cannot be restored from the share.
        </p>
      )}
    </section>
  )
}

function Redactions({ preview }: { preview: SharePreview }) {
  if (preview.masked === 0) {
    return <p className="muted">Nothing in it looks like a key: nothing is masked.</p>
  }
  return (
    <section aria-label="Redaction preview" className="share__redactions">
      <h3>
        Masked before it is sent ({preview.masked}
        {preview.masked > preview.redactions.length
          ? `, the first ${preview.redactions.length} listed`
          : ''}
        )
      </h3>
      <p className="muted">Your own log and backups keep them.</p>
      <ul>
        {preview.redactions.map((r, i) => (
          <li key={i}>
            <span className="share__where">{r.where}</span> <code>{r.shown}</code>
            <div className="share__context">…{r.context}…</div>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ShareDialog({ onClose }: { onClose: () => void }) {
  const selected = useGraphStore(selectSelectedNode)
  const running = useAppStore(selectRunning)
  const [scope, setScope] = useState<ScopeChoice>('all')
  const [remote, setRemote] = useState<string | null>(null)
  const [answer, setAnswer] = useState<{ key: string; preview: SharePreviewState } | null>(null)
  const [pushing, setPushing] = useState(false)
  const offPath = selected !== null && !selected.onActivePath ? selected : null
  const choice: ShareChoice = {
    scope: scope === 'all' ? 'all' : 'branch',
    nodeId: scope === 'selected' ? (offPath?.id ?? null) : null,
    remote
  }
  // Only the answer to the choice shown is shown (two clicks in a row ask twice).
  const { scope: asked, nodeId } = choice
  const key = `${asked} ${nodeId ?? ''} ${remote ?? ''}`
  useEffect(() => {
    void loadSharePreview({ scope: asked, nodeId, remote }).then((loaded) =>
      setAnswer({ key, preview: loaded })
    )
  }, [key, asked, nodeId, remote])
  const preview: SharePreviewState = answer?.key === key ? answer.preview : { state: 'loading' }
  const push = async () => {
    setPushing(true)
    if (await pushShare(choice)) onClose()
    else setPushing(false)
  }
  const ready = preview.state === 'ready' ? preview.preview : null
  return (
    <Modal title="Share through git" onClose={onClose} wide>
      <p>
        The session goes to the workspace’s git remote under its own ref: your branches, index and
        files are not touched. A teammate lists it under Shared sessions and continues from any
        node.
      </p>
      <fieldset className="modes">
        <legend>What</legend>
        {(
          [
            ['all', 'The whole tree'],
            ['active', 'The active branch'],
            ...(offPath !== null
              ? [['selected', `The branch through “${offPath.title || '(empty)'}”`] as const]
              : [])
          ] as const
        ).map(([value, label]) => (
          <div key={value} className="mode">
            <input
              type="radio"
              id={`share-scope-${value}`}
              name="share-scope"
              checked={scope === value}
              onChange={() => setScope(value)}
            />
            <label htmlFor={`share-scope-${value}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      {ready !== null && (
        <RemotePicker remotes={ready.remotes} remote={ready.remote} onChange={setRemote} />
      )}
      {preview.state === 'loading' && <p aria-live="polite">Working out what would be sent…</p>}
      {preview.state === 'failed' && (
        <p role="alert" className="callout callout--error">
          Cannot share: {preview.message}
        </p>
      )}
      {ready !== null && (
        <>
          <Summary preview={ready} />
          <Redactions preview={ready} />
        </>
      )}
      <div className="modal__actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={ready === null || pushing || running}
          onClick={() => void push()}
        >
          {pushing ? 'Pushing…' : 'Push'}
        </button>
      </div>
    </Modal>
  )
}
