// What a rewind or branch switch would do to the files, each with its diff, and the warnings.
import type { PreviewFile, RewindPreview } from '../../../shared/views'
import { loadPreviewDiff } from '../actions/rewind'
import { FileDiffList } from './FileDiffList'

function FileGroup({ title, files }: { title: string; files: readonly PreviewFile[] }) {
  if (files.length === 0) return null
  return (
    <section className="preview__group" aria-label={title}>
      <h3>
        {title} ({files.length})
      </h3>
      <FileDiffList files={files} loadDiff={loadPreviewDiff} />
    </section>
  )
}

/** Whether the restore would write no file (one that also leaves the leaf is not offered). */
export function changesNoFile(preview: RewindPreview): boolean {
  return preview.restore.length + preview.delete.length + preview.recreate.length === 0
}

export function PreviewList({ preview }: { preview: RewindPreview }) {
  const nothing = changesNoFile(preview)
  const outside = [...preview.restore, ...preview.delete, ...preview.recreate].filter(
    (file) => file.outsideChange
  )
  return (
    <div className="preview">
      {preview.conflicts.length > 0 && (
        <div role="alert" className="callout callout--warning">
          <strong>Changed by another session in this workspace:</strong> left alone.
          <ul>
            {preview.conflicts.map((path) => (
              <li key={path}>
                <code>{path}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {outside.length > 0 && (
        <div role="alert" className="callout callout--warning">
          {outside.length} file{outside.length === 1 ? ' was' : 's were'} changed outside the agent
          since it last wrote {outside.length === 1 ? 'it' : 'them'}: restoring replaces those
          edits.
        </div>
      )}
      <FileGroup title="Files to restore" files={preview.restore} />
      <FileGroup title="Files to delete" files={preview.delete} />
      <FileGroup title="Files to recreate" files={preview.recreate} />
      {nothing && <p className="muted">No files change.</p>}
      {preview.messagesKept !== null && (
        <p>
          The conversation keeps {preview.messagesKept} message
          {preview.messagesKept === 1 ? '' : 's'} on this branch; every turn stays in the graph.
        </p>
      )}
    </div>
  )
}
