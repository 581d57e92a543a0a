// The window: sessions and the branch outline on the left, the branch explorer in the middle, the selected branch's
// transcript or inspector on the right with the composer under it.
import { useEffect } from 'react'
import { connect } from './actions/connect'
import { openRewindPicker } from './actions/rewind'
import { BranchGraph } from './graph/BranchGraph'
import { BranchOutline } from './graph/BranchOutline'
import { useAppStore } from './stores/app-store'
import { useRewindStore } from './stores/rewind-store'
import { CompareDialog } from './panels/CompareDialog'
import { Composer } from './panels/Composer'
import { ForeignBar } from './panels/ForeignBar'
import { Header } from './panels/Header'
import { Notices } from './panels/Notices'
import { OpenFolderDialog } from './panels/OpenFolderDialog'
import { PermissionPrompt } from './panels/PermissionPrompt'
import { RewindDialogs } from './panels/RewindDialog'
import { SessionList } from './panels/SessionList'
import { SettingsDialog } from './panels/SettingsDialog'
import { SidePanel } from './panels/SidePanel'
import { layoutColumns, SideResizer, useSideWidth } from './panels/SideResizer'

const DOUBLE_ESCAPE_MS = 600

/** Esc Esc opens the rewind picker (Claude Code's habit), unless the Esc belongs to a dialog or
 * clears text being typed, or nothing can be rewound now (the agent runs, the window is
 * read-only): the picker would offer a Restore the main process refuses. */
function useEscapeTwiceOpensRewind(): void {
  useEffect(() => {
    let last = 0
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      const target = event.target
      const typing =
        (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement) &&
        target.value !== ''
      const busy =
        useRewindStore.getState().dialog.kind !== 'closed' ||
        useAppStore.getState().settingsOpen ||
        useAppStore.getState().running ||
        useAppStore.getState().info?.readOnlyReason != null
      if (typing || busy || event.defaultPrevented) {
        last = 0
        return
      }
      if (event.timeStamp - last < DOUBLE_ESCAPE_MS) {
        last = 0
        // The dialog opens while this keydown is still being dispatched: without this, the
        // browser treats the same Escape as a request to close it again.
        event.preventDefault()
        openRewindPicker()
      } else {
        last = event.timeStamp
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
}

export function App() {
  useEffect(() => connect(), [])
  const foreign = useAppStore((s) => s.info?.foreign ?? null)
  const openFolderOpen = useAppStore((s) => s.openFolderOpen)
  useEscapeTwiceOpensRewind()
  const [sideWidth, setSideWidth] = useSideWidth()
  return (
    <div className="app">
      <Header />
      <Notices />
      <main className="layout" style={{ gridTemplateColumns: layoutColumns(sideWidth) }}>
        <div className="left-column">
          <SessionList />
          <BranchOutline />
        </div>
        <BranchGraph />
        <div className="side-column">
          <SideResizer width={sideWidth} onResize={setSideWidth} />
          <SidePanel />
          <PermissionPrompt />
          {foreign === null ? <Composer /> : <ForeignBar foreign={foreign} />}
        </div>
      </main>
      <RewindDialogs />
      <CompareDialog />
      <SettingsDialog />
      {openFolderOpen && (
        <OpenFolderDialog onClose={() => useAppStore.getState().setOpenFolderOpen(false)} />
      )}
    </div>
  )
}
