// The warnings a page dismissed, for the whole host: left out of every app:info after, forgotten
// once the host stops giving them (so they show again should they return), and only those the
// host gives can be dismissed.
import { describe, expect, it } from 'vitest'
import { fixedInfo } from '../../../test/support/recording-handlers'
import type { AppInfo } from '../../shared/views'
import { DismissedNotices } from './dismissed-notices'

const info = (...notices: string[]): AppInfo => ({ ...fixedInfo, notices })

describe('dismissed notices', () => {
  it('leaves a dismissed warning out of every app:info after', () => {
    const dismissed = new DismissedNotices()
    dismissed.dismiss('No API key', info('No API key', 'No sandbox'))
    expect(dismissed.shown(info('No API key', 'No sandbox')).notices).toEqual(['No sandbox'])
    expect(dismissed.shown(info('No API key', 'No sandbox')).notices).toEqual(['No sandbox'])
  })

  it('forgets one the host stops giving: should it come back, it shows', () => {
    const dismissed = new DismissedNotices()
    dismissed.dismiss('No API key', info('No API key'))
    expect(dismissed.shown(info()).notices).toEqual([])
    expect(dismissed.shown(info('No API key')).notices).toEqual(['No API key'])
  })

  it('takes only a warning the host gives now', () => {
    const dismissed = new DismissedNotices()
    dismissed.dismiss('made up by a page', info('No API key'))
    expect(dismissed.shown(info('made up by a page')).notices).toEqual(['made up by a page'])
  })
})
