// A workspace holding a session of every format the app reads, each in its tool's home: a real
// Claude Code one with its backups (the rewind-parallel fixture), the corpus's real pi one
// (version 1, 1,019 lines) and an oh-my-pi one; ours is the one the host starts on.
import { dirname, join } from 'node:path'
import { jsonl, ompTitleSlot, writeCorpusPiSession, writeOmpSession } from '../sources/fake-homes'
import { copyFixture, relocateToWorkspace } from './cc-fixtures'

export interface EveryFormatHomes {
  workspace: string
  /** Our data home. */
  home: string
  /** The environment that points a host at the homes. */
  env: Record<string, string>
  files: { 'claude-code': string; pi: string; 'oh-my-pi': string }
}

export function everyFormatHomes(): EveryFormatHomes {
  const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
  const base = dirname(cc.claudeHome)
  const homes = { pi: join(base, 'pi-agent'), 'oh-my-pi': join(base, 'omp-agent') }
  const ws = cc.workspace
  const pi = writeCorpusPiSession(homes.pi, ws)
  const omp = writeOmpSession(
    { homes } as Parameters<typeof writeOmpSession>[0],
    '-some-folder-1a2b3c4d',
    ompTitleSlot('Refactor importer') +
      jsonl([
        { type: 'session', version: 3, id: 'omp-1', timestamp: '2026-03-01T10:03:00Z', cwd: ws },
        {
          type: 'message',
          id: 'o1',
          parentId: null,
          timestamp: '2026-03-01T10:03:01.000Z',
          message: { role: 'user', content: 'split the importer' }
        },
        {
          type: 'message',
          id: 'o2',
          parentId: 'o1',
          timestamp: '2026-03-01T10:03:05.000Z',
          message: { role: 'assistant', content: [{ type: 'text', text: 'Split it in two.' }] }
        }
      ]),
    '2026-03-01T10-03-00-000Z_omp-1.jsonl'
  )
  return {
    workspace: ws,
    home: cc.home,
    env: {
      ...cc.env,
      REWIND_STUDIO_CLAUDE_HOME: cc.claudeHome,
      REWIND_STUDIO_PI_HOME: homes.pi,
      REWIND_STUDIO_OMP_HOME: homes['oh-my-pi']
    },
    files: { 'claude-code': cc.file, pi, 'oh-my-pi': omp }
  }
}
