// Which folder is the workspace: All projects, the recent list, "Open folder…" (the desktop's
// folder dialog, or a path field completed by the main process in a browser) and the switch
// itself, after which the page loads the new workspace's latest session. A switch made in
// another window arrives as `workspace:changed` and reloads this one the same way.
import { getBridge, hasFolderDialog } from '../bridge'
import type { FolderCompletion } from '../../../shared/views'
import { useAppStore } from '../stores/app-store'
import { attempt } from './report'
import { followOtherWindow, switchSession } from './session'

export async function loadProjects(): Promise<void> {
  const projects = await attempt('Listing all projects', () =>
    getBridge().request('projects:list', {})
  )
  if (projects !== null) useAppStore.getState().setProjects(projects)
}

export async function loadRecent(): Promise<void> {
  const recent = await attempt('Listing recent workspaces', () =>
    getBridge().request('workspace:recent', {})
  )
  if (recent !== null) useAppStore.getState().setRecent(recent)
}

/**
 * Opens `cwd` as the workspace; false when the main process refused it: reported as a notice, or
 * to `refused` (the Open folder dialog shows why in itself, not behind it).
 */
export async function openWorkspace(
  cwd: string,
  refused?: (message: string) => void
): Promise<boolean> {
  const done = await switchSession(
    () => getBridge().request('workspace:open', { cwd }),
    `Opening ${cwd}`,
    refused
  )
  if (done) {
    useAppStore.getState().setStatus(`Opened ${cwd}`)
    void loadRecent()
  }
  return done
}

/** "Open folder…": the system's dialog on the desktop, the path field in a browser. */
export async function openFolder(): Promise<void> {
  if (!hasFolderDialog()) {
    void loadRecent()
    useAppStore.getState().setOpenFolderOpen(true)
    return
  }
  const picked = await attempt('Choosing a folder', () => getBridge().request('workspace:pick', {}))
  if (picked?.cwd != null) await openWorkspace(picked.cwd)
}

/** The folders the typed path may go on with; null when it names none (said in `problem`). */
export async function completeFolder(
  path: string
): Promise<{ completion: FolderCompletion | null; problem: string | null }> {
  try {
    return { completion: await getBridge().request('fs:complete', { path }), problem: null }
  } catch (error) {
    return { completion: null, problem: error instanceof Error ? error.message : String(error) }
  }
}

/** Another window switched the workspace: this one follows. */
export function followWorkspace(workspace: string): void {
  if (useAppStore.getState().info?.workspace !== workspace) void followOtherWindow()
}
