// A list of files, each a disclosure with its unified diff and, where it applies, the warning
// that it changed outside the agent. The inspector and the rewind preview both show files so. A
// big rewind preview leaves most diffs out (null): such a diff is asked for when its file is
// opened. A long list is grouped by folder, each folder a disclosure of its own.
import { useEffect, useMemo, useState } from 'react'
import type { PreviewFile } from '../../../shared/views'
import { DiffView } from './DiffView'
import { GROUP_FROM, groupByFolder, type FolderGroup } from './file-groups'

type LoadDiff = (path: string) => Promise<string>

/** More than GROUP_FROM files are listed by folder (file-groups.ts), each folder folded. */
export function FileDiffList({
  files,
  loadDiff
}: {
  files: readonly PreviewFile[]
  /** Gives a diff the list was sent without. */
  loadDiff?: LoadDiff
}) {
  const root = useMemo(() => (files.length > GROUP_FROM ? groupByFolder(files) : null), [files])
  if (root !== null) return <FolderContents folder={root} loadDiff={loadDiff} />
  return (
    <ul className="file-list">
      {files.map((file) => (
        <FileEntry key={file.path} file={file} loadDiff={loadDiff} />
      ))}
    </ul>
  )
}

/** A folder's folders, then its own files. */
function FolderContents({
  folder,
  loadDiff
}: {
  folder: FolderGroup<PreviewFile>
  loadDiff: LoadDiff | undefined
}) {
  return (
    <ul className="file-list">
      {folder.folders.map((inner) => (
        <FolderEntry key={inner.path} folder={inner} loadDiff={loadDiff} />
      ))}
      {folder.files.map((file) => (
        <FileEntry key={file.path} file={file} loadDiff={loadDiff} />
      ))}
    </ul>
  )
}

/** A folded folder: its name and count; what it holds is drawn only once it is opened. */
function FolderEntry({
  folder,
  loadDiff
}: {
  folder: FolderGroup<PreviewFile>
  loadDiff: LoadDiff | undefined
}) {
  const [open, setOpen] = useState(false)
  const count = `${folder.count.toLocaleString('en-US')} file${folder.count === 1 ? '' : 's'}`
  return (
    <li className="file-list__folder">
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <code>{folder.name}</code> <span className="muted">{count}</span>
        </summary>
        {open && <FolderContents folder={folder} loadDiff={loadDiff} />}
      </details>
    </li>
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
