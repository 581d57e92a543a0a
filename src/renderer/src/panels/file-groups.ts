// A long list of files as folders: a rewind of 3,000 files listed 3,000 rows. Files are grouped
// by folder, nested as the folders are, each folder counting the files under it; a folder that
// holds only one folder is shown joined with it (`src/gen/`), so a deep path is one row. Pure.

/** Lists up to this many files stay flat: a folder row would only add a click. */
export const GROUP_FROM = 25

export interface FolderGroup<File> {
  /** The folder's path from the top of the list, with a trailing `/` (`src/gen/`). */
  path: string
  /** Its name under its parent group (`gen/`, or `src/gen/` when joined). */
  name: string
  /** Files directly in it, in the list's order. */
  files: File[]
  folders: FolderGroup<File>[]
  /** Files in it and every folder under it. */
  count: number
}

interface Draft<File> {
  files: File[]
  folders: Map<string, Draft<File>>
}

/** The files as a tree of folders: the root's own files and its folders (joined where single). */
export function groupByFolder<File extends { path: string }>(
  files: readonly File[]
): FolderGroup<File> {
  const root: Draft<File> = { files: [], folders: new Map() }
  for (const file of files) {
    const parts = file.path.split('/')
    let at = root
    for (const part of parts.slice(0, -1)) {
      let next = at.folders.get(part)
      if (next === undefined) {
        next = { files: [], folders: new Map() }
        at.folders.set(part, next)
      }
      at = next
    }
    at.files.push(file)
  }
  return finish(root, '', '')
}

function finish<File>(draft: Draft<File>, path: string, name: string): FolderGroup<File> {
  // A folder holding one folder and no file is joined with it.
  let at = draft
  while (path !== '' && at.files.length === 0 && at.folders.size === 1) {
    const [[part, only]] = [...at.folders] as [[string, Draft<File>]]
    path += `${part}/`
    name += `${part}/`
    at = only
  }
  const folders = [...at.folders]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([part, folder]) => finish(folder, `${path}${part}/`, `${part}/`))
  const count = at.files.length + folders.reduce((sum, folder) => sum + folder.count, 0)
  return { path, name, files: at.files, folders, count }
}
