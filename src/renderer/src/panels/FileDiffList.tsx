// A list of files, each a disclosure with its unified diff and, where it applies, the warning
// that it changed outside the agent. The inspector and the rewind preview both show files so. A
// big rewind preview leaves most diffs out (null): such a diff is asked for when its file is
// opened.
import { useEffect, useState } from 'react'
import type { PreviewFile } from '../../../shared/views'
import { DiffView } from './DiffView'

type LoadDiff = (path: string) => Promise<string>

export function FileDiffList({
  files,
  loadDiff
}: {
  files: readonly PreviewFile[]
  /** Gives a diff the list was sent without. */
  loadDiff?: LoadDiff
}) {
  return (
    <ul className="file-list">
      {files.map((file) => (
        <FileEntry key={file.path} file={file} loadDiff={loadDiff} />
      ))}
    </ul>
  )
}

function FileEntry({ file, loadDiff }: { file: PreviewFile; loadDiff: LoadDiff | undefined }) {
  const [open, setOpen] = useState(false)
  return (
    <li>
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <code>{file.path}</code>
          {file.outsideChange && (
            <span className="warning-chip">changed outside the agent since</span>
          )}
        </summary>
        {file.note !== undefined ? (
          <p className="muted">{file.note}</p>
        ) : file.diff !== null ? (
          <DiffView diff={file.diff} />
        ) : open && loadDiff !== undefined ? (
          <LoadedDiff path={file.path} loadDiff={loadDiff} />
        ) : null}
      </details>
    </li>
  )
}

type Loaded =
  { state: 'loading' } | { state: 'ready'; diff: string } | { state: 'failed'; message: string }

function LoadedDiff({ path, loadDiff }: { path: string; loadDiff: LoadDiff }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' })
  useEffect(() => {
    let current = true
    loadDiff(path).then(
      (diff) => current && setLoaded({ state: 'ready', diff }),
      (error: unknown) =>
        current &&
        setLoaded({
          state: 'failed',
          message: error instanceof Error ? error.message : String(error)
        })
    )
    return () => {
      current = false
    }
  }, [path, loadDiff])
  if (loaded.state === 'loading') return <p className="muted">Loading the diff…</p>
  if (loaded.state === 'failed') return <p role="alert">{loaded.message}</p>
  return <DiffView diff={loaded.diff} />
}
