// "Bring in" applies the merge the page previewed (merge-handlers.ts keeps that plan per studio),
// driven through a WorkspaceHost as Electron main and `serve` serve it: real files in a real
// session, a hand edit between the preview and the apply, the scripted model.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { launchScriptedStudio } from '../support/scripted-studio'
import { type WorkspaceSession, newSession } from '../rewind/fixture'
import type { MergePreview } from '../../src/shared/merge-views'
import type { NodeDetail } from '../../src/shared/views'
import { dispatch } from '../../src/core/studio/dispatch'
import type { Studio } from '../../src/core/studio/studio'
import { WorkspaceHost } from '../../src/core/studio/workspace-host'

const opened: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const open of opened.splice(0)) await open.close().catch(() => undefined)
})

const lines = (...l: string[]) => `${l.join('\n')}\n`
const base = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']

/** Their branch changes a.txt's first line; ours (the active one) its last. Closed for the studio. */
async function twoBranches(): Promise<{ s: WorkspaceSession; theirTurn: string }> {
  const s = await newSession()
  s.prompt('write the base')
  await s.write('a.txt', lines(...base))
  s.reply('base written')
  const theirTurn = s.prompt('their change')
  await s.write('a.txt', lines('ONE', ...base.slice(1)))
  s.reply('their change made')
  await s.engine.rewind(theirTurn, 'both')
  s.prompt('our change')
  await s.write('a.txt', lines(...base.slice(0, -1), 'NINE'))
  s.reply('our change made')
  await s.close()
  return { s, theirTurn }
}

async function hostOn(s: WorkspaceSession) {
  const launch = async (cwd: string): Promise<Studio> => {
    const studio = await launchScriptedStudio({ home: s.home, cwd })
    opened.push(studio)
    return studio
  }
  const host = new WorkspaceHost(await launch(s.cwd), { home: s.home, launch })
  const handlers = host.handlers()
  return (channel: string, args: unknown) => dispatch(handlers, channel, args, () => {})
}

describe('bringing another branch in through the host', () => {
  it('refuses the apply when a file changed after the preview, changing nothing, and applies a fresh preview', async () => {
    const { s, theirTurn } = await twoBranches()
    const call = await hostOn(s)
    const ask = { nodeId: theirTurn, files: true }
    const preview = await call('merge:preview', ask)
    expect(preview.ok).toBe(true)
    expect((preview as { value: MergePreview }).value.files.map((f) => [f.path, f.status])).toEqual(
      [['a.txt', 'clean']]
    )

    // The user edits the file the preview read, by hand, before "Bring in".
    const byHand = lines(...base.slice(0, 4), 'FIVE by hand', ...base.slice(5, -1), 'NINE')
    s.hand('a.txt', byHand)
    const log = readFileSync(s.store.file, 'utf8')
    const refused = await call('merge:apply', { ...ask, resolutions: [] })
    expect(refused.ok).toBe(false)
    expect((refused as { error: { message: string } }).error.message).toContain('preview it again')
    expect(s.read('a.txt')).toBe(byHand)
    expect(readFileSync(s.store.file, 'utf8')).toBe(log)

    // Previewed again, the merge reads the edit and brings their line in beside it.
    expect((await call('merge:preview', ask)).ok).toBe(true)
    const applied = await call('merge:apply', { ...ask, resolutions: [] })
    expect(applied.ok).toBe(true)
    expect(s.read('a.txt')).toBe(
      lines('ONE', ...base.slice(1, 4), 'FIVE by hand', ...base.slice(5, -1), 'NINE')
    )
    // Its node's Inspector says when it was brought in (it said "Written unknown": the UI sweep
    // of stop 46).
    const { mergeUuid } = (applied as { value: { mergeUuid: string } }).value
    const node = await call('session:node', { nodeId: mergeUuid })
    const summary = (node as { value: NodeDetail }).value.summary
    expect(summary?.rewoundAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/))
    expect(summary?.text).toContain('a.txt')
  })
})
