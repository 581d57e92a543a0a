// A list of files, each a disclosure with its unified diff and, where it applies, the warning
// that it changed outside the agent. The inspector and the rewind preview both show files so.
import type { FileDiff } from '../../../shared/views'
import { DiffView } from './DiffView'

export function FileDiffList({ files }: { files: readonly FileDiff[] }) {
  return (
    <ul className="file-list">
      {files.map((file) => (
        <li key={file.path}>
          <details>
            <summary>
              <code>{file.path}</code>
              {file.outsideChange && (
                <span className="warning-chip">changed outside the agent since</span>
              )}
            </summary>
            {file.note !== undefined ? (
              <p className="muted">{file.note}</p>
            ) : (
              <DiffView diff={file.diff} />
            )}
          </details>
        </li>
      ))}
    </ul>
  )
}
