// A Gemini CLI and a Codex CLI session in the explorer, through the contract's handlers as both
// transports call them (the real tools' sessions, test/fixtures): the session's tool is named as
// it is called, what its backups hold is said in its reader's words where a restore or a compare
// leans on them (not Claude Code's sentence for another tool's), and a tool that keeps none says
// so when a restore is asked.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  AppInfo,
  CompareView,
  NodeDetail,
  RescuePreview,
  SessionGraph
} from '../../src/shared/views'
import { fingerprint } from './cc-fixtures'
import { codexHome, geminiHome } from './tool-homes'
import { studioOver } from './tool-studio'

describe('other tools’ sessions in the explorer', () => {
  it('Gemini CLI: named, its checkpoints said to be what they are in the restore and in compare', async () => {
    const g = geminiHome('gemini-home-before-restore', 'workspace-before-restore')
    const s = await studioOver(g, { REWIND_STUDIO_GEMINI_HOME: g.toolHome })
    const info = await s.value<AppInfo>('session:openFile', { file: g.chats[0] })
    expect(info.foreign).toMatchObject({ format: 'gemini-cli', backups: true })
    expect(info.foreign?.keeps).toContain('Gemini CLI keeps a checkpoint')
    expect(info.readOnlyReason).toContain('This Gemini CLI session is shown read-only')
    const turns = (await s.value<SessionGraph>('session:graph')).nodes.filter(
      (n) => n.kind === 'turn'
    )
    expect(turns.map((n) => n.title)).toEqual([
      'write the plan',
      'edit the plan',
      'write the notes',
      'run a shell'
    ])
    const view = await s.value<CompareView>('compare', { a: turns[0]?.id, b: turns[2]?.id })
    expect(view.caveat).toContain('Gemini CLI keeps a checkpoint')
    expect(view.caveat).not.toContain('Claude Code')
    const preview = await s.value<RescuePreview>('rescue:preview', { nodeId: turns[0]?.id })
    expect(preview.delete.map((f) => f.path)).toEqual(['notes.txt', 'plan.txt'])
    expect(preview.delete.find((f) => f.path === 'notes.txt')?.outsideChange).toBe(true)
  })

  it('Codex CLI: keeps no backups, and a restore asked anyway says so', async () => {
    const c = codexHome()
    const day = join(c.toolHome, 'sessions', '2026', '12', '01')
    const file = join(day, readdirSync(day).find((f) => f.includes('f7bd')) ?? '')
    const s = await studioOver(c, { REWIND_STUDIO_CODEX_HOME: c.toolHome })
    const info = await s.value<AppInfo>('session:openFile', { file })
    expect(info.foreign).toMatchObject({ format: 'codex', backups: false })
    expect(info.readOnlyReason).toContain('This Codex CLI session is shown read-only')
    const [first] = (await s.value<SessionGraph>('session:graph')).nodes
    const reply = await s.call('rescue:preview', { nodeId: first?.id })
    expect(reply.ok).toBe(false)
    if (!reply.ok) expect(reply.error.message).toContain('Codex CLI keeps no backups')
  })

  it("Codex CLI: each turn's patched files are shown, said to be unkept, never guessed as added or deleted", async () => {
    const c = codexHome('workspace-after', 'codex-patches')
    const day = join(c.toolHome, 'sessions', '2026', '12', '03')
    const file = join(day, readdirSync(day)[0] ?? '')
    const before = fingerprint(c.workspace)
    const s = await studioOver(c, { REWIND_STUDIO_CODEX_HOME: c.toolHome })
    await s.value<AppInfo>('session:openFile', { file })
    const turns = (await s.value<SessionGraph>('session:graph')).nodes.filter(
      (n) => n.kind === 'turn'
    )
    expect(turns.map((n) => [n.title, n.filesChanged])).toEqual([
      ['add the files', 4],
      ['move, delete and update', 4],
      ['patch through the shell', 1],
      ['refused patches', 0],
      ['an old shell call', 0],
      ['a plain command', 0]
    ])
    // The inspector: what the patch did to each file, and that no content was kept (no diff).
    const detail = await s.value<NodeDetail>('session:node', { nodeId: turns[1]?.id })
    expect(detail.files.map((f) => [f.path, f.diff, f.note?.split('. ')[0]])).toEqual([
      ['old/name.txt', '', 'Moved away by this turn'],
      ['new/name.txt', '', 'Moved here by this turn'],
      ['gone.txt', '', 'Deleted by this turn'],
      ['keep.txt', '', 'Updated by this turn']
    ])
    for (const f of detail.files) expect(f.note).toContain('Codex CLI keeps no copy of the files')
    // Compare: nothing says what a side held, so every file says so; none is claimed added or
    // deleted from a null that means "unknown".
    const view = await s.value<CompareView>('compare', { a: turns[0]?.id, b: 'current' })
    expect(view.caveat).toContain('Codex CLI keeps no backups')
    expect(view.files.map((f) => [f.path, f.change, f.diff])).toEqual(
      ['abs/inside.txt', 'gone.txt', 'keep.txt', 'new/name.txt', 'old/name.txt', 'shell.txt'].map(
        (path) => [path, 'modified', '']
      )
    )
    for (const f of view.files) expect(f.note).toContain('was never saved')
    const reply = await s.call('rescue:preview', { nodeId: turns[0]?.id })
    expect(reply.ok).toBe(false)
    expect(fingerprint(c.workspace)).toEqual(before)
  })
})
