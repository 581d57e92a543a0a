// What people watch of a running command: its last lines, bounded, keys masked, a key cut across
// chunks never shown in part; and a real Bash handing its output over while it still runs.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { makeWorkspace } from '../../../../test/support/tool-workspace'
import { createBashTool } from './bash'
import { LIVE_OUTPUT_CHARS, LiveOutput } from './live-output'
import { runTool, type Tool } from './tool'

const key = `sk-ant-api03-${'aB3'.repeat(31)}xy`

describe('the view of a running command', () => {
  it('shows finished lines only, so a key cut across two chunks is never shown in part', () => {
    const live = new LiveOutput()
    live.append(`first\nexport KEY=${key.slice(0, 40)}`)
    expect(live.shown()).toBe('first\n')
    live.append(`${key.slice(40)}\n`)
    expect(live.shown()).toBe('first\nexport KEY=sk-ant-…(108 chars, masked)\n')
    expect(live.shown()).not.toContain(key.slice(13, 30))
  })

  it('draws a progress bar redrawn with carriage returns as one line', () => {
    const live = new LiveOutput()
    live.append('downloading\n10%\r50%\r')
    expect(live.shown()).toBe('downloading\n50%')
    live.append('100%\r\ndone\n')
    expect(live.shown()).toBe('downloading\n100%\ndone\n')
  })

  it('keeps the last lines within its bound, whole, and says earlier ones are not shown', () => {
    const live = new LiveOutput()
    for (let i = 0; i < 5_000; i++) live.append(`line ${i}\n`)
    const shown = live.shown()
    expect(shown.length).toBeLessThan(LIVE_OUTPUT_CHARS + 100)
    expect(shown.startsWith('[earlier output not shown]\nline ')).toBe(true)
    expect(shown.endsWith('line 4999\n')).toBe(true)
  })

  it('shows a long line with no end up to its last space, and bounds one with none', () => {
    const live = new LiveOutput()
    live.append(`${'word '.repeat(300)}${key.slice(0, 20)}`)
    expect(live.shown()).toBe('word '.repeat(300))
    const endless = new LiveOutput()
    endless.append('x'.repeat(5 * LIVE_OUTPUT_CHARS))
    expect(endless.shown()).toBe('[earlier output not shown]\n')
  })
})

describe('Bash while it runs', () => {
  it("hands over a real command's output as it prints, before the command ends", async () => {
    const ws = makeWorkspace()
    const seen: string[] = []
    const bash = createBashTool({ sandbox: false }) as Tool
    // The command waits for a file the test makes only once it saw the first line: the output
    // can only have come while the command ran.
    const run = runTool(
      bash,
      { command: 'echo first; while [ ! -e go ]; do sleep 0.05; done; echo second' },
      { ...ws.ctx, onOutput: (text) => seen.push(text) }
    )
    for (let i = 0; i < 400 && !seen.join('').includes('first\n'); i++) await sleep(25)
    expect(seen.join('')).toBe('first\n')
    expect(existsSync(join(ws.root, 'go'))).toBe(false)
    writeFileSync(join(ws.root, 'go'), '')
    const out = await run
    expect(out.content).toMatch(/^first\nsecond/)
    expect(seen.join('')).toBe('first\nsecond\n')
  })
})
