import { describe, expect, it } from 'vitest'
import { needsPermission } from './permissions'

describe('needsPermission', () => {
  it('asks exactly where the mode says', () => {
    const table = (['default', 'acceptEdits', 'bypassPermissions'] as const).map((mode) => [
      mode,
      needsPermission(mode, 'read'),
      needsPermission(mode, 'edit'),
      needsPermission(mode, 'execute')
    ])
    expect(table).toEqual([
      ['default', false, true, true],
      ['acceptEdits', false, false, true],
      ['bypassPermissions', false, false, false]
    ])
  })
})
