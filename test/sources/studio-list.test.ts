// The studio's session list and All projects over the contract: every tool's sessions of the
// workspace (homes from the environment, as the hosts find them), each answer valid against the
// contract, titles masked; the list after a turn reads only the current session's new lines.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createHandlers } from '../../src/core/studio/handlers'
import { dispatch } from '../../src/core/studio/dispatch'
import { launchScriptedStudio } from '../support/scripted-studio'
import type { ProjectSummary, SessionSummary } from '../../src/shared/views'
import { claude, fakeHomes, writeClaudeSession } from './fake-homes'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the studio lists every tool’s sessions', () => {
  it('answers session:list and projects:list within the contract', async () => {
    const h = fakeHomes()
    for (const [name, value] of Object.entries(h.env)) vi.stubEnv(name, value)
    writeClaudeSession(h, h.ws, [
      claude.user(
        h.ws,
        'c1',
        null,
        'use key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 here',
        '2026-03-01T10:00:00.000Z'
      )
    ])
    const studio = await launchScriptedStudio({
      home: h.home,
      cwd: h.ws
    })
    try {
      const handlers = createHandlers(studio)
      const list = await dispatch(handlers, 'session:list', {})
      expect(list.ok).toBe(true)
      const sessions = (list as { value: SessionSummary[] }).value
      // Ours first: the new session the studio is on, listed though it has no file yet.
      expect(sessions.map((s) => [s.source, s.current, s.prompts])).toEqual([
        ['rewind-studio', true, 0],
        ['claude-code', false, 1]
      ])
      expect(sessions[1]?.title).toBe('use key sk-ant-…(49 chars, masked) here')
      expect(JSON.stringify(sessions)).not.toContain('abcdefghij')

      const projects = await dispatch(handlers, 'projects:list', {})
      expect(projects.ok).toBe(true)
      expect((projects as { value: ProjectSummary[] }).value).toEqual([
        // Claude Code's: ours is counted once it has a file (its first prompt).
        expect.objectContaining({ cwd: h.ws, sessions: 1 })
      ])
    } finally {
      await studio.close()
    }
  })
})
