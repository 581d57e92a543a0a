// Settings: read when the dialog opens, written field by field. The API key only ever travels
// renderer → main; what comes back says where a key comes from, never the key.
import { getBridge } from '../bridge'
import type { Settings, SettingsUpdate } from '../../../shared/views'
import { useAppStore } from '../stores/app-store'
import { attempt } from './report'

export const loadSettings = (): Promise<Settings | null> =>
  attempt('Loading settings', () => getBridge().request('settings:get', {}))

export async function saveSettings(update: SettingsUpdate): Promise<Settings | null> {
  const saved = await attempt('Saving settings', () => getBridge().request('settings:set', update))
  if (saved === null) return null
  useAppStore.getState().setStatus('Settings saved')
  // The header follows: the model (a key ends the demo model) and the context window its meter
  // measures against.
  const askedAt = useAppStore.getState().statusEvents
  const info = await attempt('Reading the new settings', () => getBridge().request('app:info', {}))
  if (info !== null) useAppStore.getState().setInfo(info, askedAt)
  return saved
}
