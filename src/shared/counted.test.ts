import { describe, expect, it } from 'vitest'
import { counted } from './counted'

describe('counted', () => {
  it('writes the noun singular for one, plural otherwise, the number grouped', () => {
    expect(counted(1, 'file')).toBe('1 file')
    expect(counted(0, 'file')).toBe('0 files')
    expect(counted(12_000, 'session')).toBe('12,000 sessions')
    expect(counted(2, 'half-made run folder')).toBe('2 half-made run folders')
    expect(counted(3, 'match', 'matches')).toBe('3 matches')
  })
})
