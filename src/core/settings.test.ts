import { mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyOverrides, readSettings, SettingsError, writeSettings } from './settings'

const home = () => mkdtempSync(join(tmpdir(), 'rs-settings-'))

describe('settings', () => {
  it('reports a malformed settings file and leaves it as it is', () => {
    const dir = home()
    writeFileSync(join(dir, 'settings.json'), '{"model": ')
    expect(() => readSettings(dir)).toThrow(SettingsError)
    expect(() => writeSettings(dir, { model: 'x' })).toThrow(/not valid JSON/)
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe('{"model": ')
  })

  // The hostile sweep (stop 46): a 1 GB settings.json was read whole (seconds, a gigabyte of
  // memory) before its error. A sparse file: the gigabyte is never on disk.
  it('refuses a settings file far larger than ours unread, and leaves it as it is', () => {
    const dir = home()
    const file = join(dir, 'settings.json')
    writeFileSync(file, '{"model": "x"}')
    truncateSync(file, 1024 ** 3)
    expect(() => readSettings(dir)).toThrow(
      `${file} is 1.1 GB, more than the 4.2 MB such a file may be: it is not read; remove it.`
    )
    expect(() => writeSettings(dir, { model: 'y' })).toThrow(SettingsError)
    expect(statSync(file).size).toBe(1024 ** 3)
  })

  it('rejects a setting of the wrong type', () => {
    expect(() => applyOverrides({}, ['checkpoint.enabled=maybe'])).toThrow(/checkpoint.enabled/)
    expect(() => applyOverrides({}, ['novalue'])).toThrow(/key=value/)
  })

  it('applies dotted overrides for one run without touching the file', () => {
    const dir = home()
    writeSettings(dir, { model: 'claude-x', checkpoint: { enabled: false } })
    const run = applyOverrides(readSettings(dir), [
      'checkpoint.enabled=true',
      'model=scripted:a.json'
    ])
    expect(run).toEqual({ model: 'scripted:a.json', checkpoint: { enabled: true } })
    expect(readSettings(dir)).toEqual({ model: 'claude-x', checkpoint: { enabled: false } })
  })

  it('keeps unknown keys when saving', () => {
    const dir = home()
    writeFileSync(join(dir, 'settings.json'), '{"future": {"x": 1}}')
    writeSettings(dir, { permissionMode: 'acceptEdits' })
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({
      future: { x: 1 },
      permissionMode: 'acceptEdits'
    })
  })
})
