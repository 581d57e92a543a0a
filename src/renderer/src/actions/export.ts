// Export…: the session as Markdown, one HTML page or JSON, rendered by the main process (the same
// export as `rewind-studio export`) and saved as a download: the browser's own download, and in
// Electron the save dialog its session shows for a download (src/main/window.ts).
import { getBridge } from '../bridge'
import type { ExportFormat, ExportedFile } from '../../../shared/views'
import { useAppStore } from '../stores/app-store'
import { attempt } from './report'

export type ExportScope = { kind: 'all' } | { kind: 'branch'; nodeId: string | null }

/** Exports and saves; false when the main process refused (reported). */
export async function exportSession(format: ExportFormat, scope: ExportScope): Promise<boolean> {
  const file = await attempt('Exporting', () =>
    getBridge().request('session:export', {
      format,
      scope: scope.kind,
      ...(scope.kind === 'branch' && scope.nodeId !== null ? { nodeId: scope.nodeId } : {})
    })
  )
  if (file === null) return false
  save(file)
  useAppStore.getState().setStatus(`Exported ${file.fileName}`)
  return true
}

function save(file: ExportedFile): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }))
  const link = document.createElement('a')
  link.href = url
  link.download = file.fileName
  link.click()
  // The download reads the Blob after this returns (a browser may wait for a save dialog): the
  // URL is let go of a minute later, not at once.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
