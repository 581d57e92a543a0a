// The warnings every app:info carries (No API key…, a session file with problems) that a page
// dismissed. Dismissed for the host, not the page: a second tab, a reload or another workspace
// opened does not bring one back. One the host stops giving (a key saved) is forgotten, so it
// shows again should it come back. Only a warning the host gives now is taken: what a page sends
// cannot grow the set.
import type { AppInfo } from '../../shared/views'

export class DismissedNotices {
  private readonly dismissed = new Set<string>()

  /** `message` dismissed, when it is one of the warnings `info` gives. */
  dismiss(message: string, info: AppInfo): void {
    if (info.notices.includes(message)) this.dismissed.add(message)
  }

  /** `info` without the warnings dismissed; those it no longer gives are forgotten. */
  shown(info: AppInfo): AppInfo {
    if (this.dismissed.size === 0) return info
    for (const message of this.dismissed) {
      if (!info.notices.includes(message)) this.dismissed.delete(message)
    }
    return { ...info, notices: info.notices.filter((notice) => !this.dismissed.has(notice)) }
  }
}
