import { describe, expect, it } from 'vitest'
import {
  escapeControlChars,
  escapeControlCharsInJson,
  escapeControlCharsOneLine
} from './control-chars'

describe('escapeControlChars', () => {
  it('writes out what a terminal would act on, keeping lines and tabs', () => {
    expect(escapeControlChars('a\u001b[2Kb\rc\bd\u0007\u007f\u009b2J\n\te')).toBe(
      'a\\x1b[2Kb\\rc\\x08d\\x07\\x7f\\x9b2J\n\te'
    )
  })

  it('writes out bidi overrides, isolates and marks, and the line separators', () => {
    expect(escapeControlChars('x\u202ey\u2066z\u2069\u200f\u061c\u2028')).toBe(
      'x\\u202ey\\u2066z\\u2069\\u200f\\u061c\\u2028'
    )
  })

  it('leaves ordinary text alone, other scripts and emoji included', () => {
    const text = 'config.py: 给 TIMEOUT 加 30 — ok ✓ 🎉 ﻣﺮﺣﺒﺎ'
    expect(escapeControlChars(text)).toBe(text)
  })

  it('escapes newlines and tabs too for one line', () => {
    expect(escapeControlCharsOneLine('a\nb\tc\r')).toBe('a\\nb\\tc\\r')
  })

  it('keeps JSON valid and meaning the same', () => {
    const value = { s: 'a\u001b]0;t\u0007\u009b\u202e\u007fz' }
    const json = escapeControlCharsInJson(JSON.stringify(value, null, 2))
    expect(json).not.toMatch(/[\u007f-\u009f\u202e]/)
    expect(JSON.parse(json)).toEqual(value)
  })
})
