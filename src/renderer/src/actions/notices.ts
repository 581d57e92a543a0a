// Dismissing a notice. A warning that came with app:info (No API key…) is dismissed for the host:
// the main process leaves it out of app:info from then on, so a second tab or a reload does not
// show it again (core/studio/dismissed-notices.ts).
import { getBridge } from '../bridge'
import { useAppStore, type Notice } from '../stores/app-store'
import { attempt } from './report'

export function dismissNotice(notice: Notice): void {
  const app = useAppStore.getState()
  app.dismissNotice(notice.id)
  if (!app.announced.has(notice.message)) return
  void attempt('Dismissing the notice', () =>
    getBridge().request('notice:dismiss', { message: notice.message })
  )
}
