// The right column: Transcript, Inspector and Timeline tabs under the selected node's actions.
import { showPanel } from '../actions/session'
import { selectPanel, useAppStore, type SidePanel as Panel } from '../stores/app-store'
import { Inspector } from './Inspector'
import { SelectionBar } from './SelectionBar'
import { Timeline } from './Timeline'
import { Transcript } from './Transcript'

const TABS: { panel: Panel; name: string }[] = [
  { panel: 'transcript', name: 'Transcript' },
  { panel: 'inspector', name: 'Inspector' },
  { panel: 'timeline', name: 'Timeline' }
]

const PANELS: Record<Panel, () => React.JSX.Element> = {
  transcript: Transcript,
  inspector: Inspector,
  timeline: Timeline
}

export function SidePanel() {
  const panel = useAppStore(selectPanel)
  const Shown = PANELS[panel]
  return (
    <section className="side" aria-label="Selected branch">
      <SelectionBar />
      <div role="tablist" className="tabs" aria-label="Side panel">
        {TABS.map((tab) => (
          <button
            key={tab.panel}
            type="button"
            role="tab"
            id={`tab-${tab.panel}`}
            aria-selected={panel === tab.panel}
            aria-controls={`tabpanel-${tab.panel}`}
            className="tab"
            onClick={() => showPanel(tab.panel)}
          >
            {tab.name}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`tabpanel-${panel}`}
        aria-labelledby={`tab-${panel}`}
        className="tabpanel"
      >
        <Shown />
      </div>
    </section>
  )
}
