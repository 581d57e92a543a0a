// Fake homes of Claude Code, pi and oh-my-pi (and empty ones of Codex CLI, Gemini CLI, OpenCode) holding sessions of a temp workspace, written in each
// tool's own layout and record shapes (see core/sources/homes.ts), beside our own data home.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SourceHomes } from '../../src/core/sources/homes'
import { encodeCwd } from '../../src/core/session/paths'

export interface FakeHomes {
  base: string
  /** The workspace (a real path). */
  ws: string
  home: string
  homes: SourceHomes
  /** The environment a host would be given to find them. */
  env: Record<string, string>
}

export function fakeHomes(): FakeHomes {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'rs-sources-')))
  const ws = join(base, 'my-project')
  mkdirSync(ws)
  const home = join(base, 'rs-home')
  const homes: SourceHomes = {
    'rewind-studio': home,
    'claude-code': join(base, 'claude'),
    pi: join(base, 'pi-agent'),
    'oh-my-pi': join(base, 'omp-agent'),
    codex: join(base, 'codex'),
    'gemini-cli': join(base, 'gemini'),
    opencode: join(base, 'opencode')
  }
  return {
    base,
    ws,
    home,
    homes,
    env: {
      REWIND_STUDIO_HOME: home,
      REWIND_STUDIO_CLAUDE_HOME: homes['claude-code'],
      REWIND_STUDIO_PI_HOME: homes.pi,
      REWIND_STUDIO_OMP_HOME: homes['oh-my-pi'],
      REWIND_STUDIO_CODEX_HOME: homes.codex,
      REWIND_STUDIO_GEMINI_HOME: homes['gemini-cli'],
      REWIND_STUDIO_OPENCODE_HOME: homes.opencode
    }
  }
}

export const jsonl = (records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('')

function write(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, name)
  writeFileSync(file, text)
  return file
}

/** Claude Code's records: a user message (prompt or tool result), an assistant one, others. */
export const claude = {
  user(
    cwd: string,
    uuid: string,
    parentUuid: string | null,
    content: unknown,
    at: string,
    extra = {}
  ) {
    return {
      parentUuid,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId: 'cc-session-1',
      version: '2.1.33',
      type: 'user',
      message: { role: 'user', content },
      uuid,
      timestamp: at,
      ...extra
    }
  },
  assistant(cwd: string, uuid: string, parentUuid: string, text: string, at: string) {
    return {
      parentUuid,
      isSidechain: false,
      cwd,
      sessionId: 'cc-session-1',
      type: 'assistant',
      message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'text', text }] },
      uuid,
      timestamp: at
    }
  }
}

/** A Claude Code project folder (`<home>/projects/<encoded cwd>/<session>.jsonl`). */
export function writeClaudeSession(
  h: FakeHomes,
  cwd: string,
  records: unknown[],
  name = 'cc-session-1.jsonl',
  folder = encodeCwd(cwd)
): string {
  return write(join(h.homes['claude-code'], 'projects', folder), name, jsonl(records))
}

/** A pi session of `cwd` in pi's home. */
export function writePiSession(
  h: FakeHomes,
  cwd: string,
  records: unknown[],
  name: string
): string {
  return write(join(h.homes.pi, 'sessions', piFolder(cwd)), name, jsonl(records))
}

/** pi's folder: `--<cwd without its leading />, / as ->--`. */
function piFolder(cwd: string): string {
  return `--${cwd.replace(/^\//, '').replace(/\//g, '-')}--`
}

/** oh-my-pi's 256-byte title line (padded inside the JSON), rewritten in place by oh-my-pi. */
export function ompTitleSlot(title: string, source: 'auto' | 'user' = 'auto'): string {
  const bare = JSON.stringify({
    type: 'title',
    v: 1,
    title,
    source,
    updatedAt: '2026-03-01T10:00:00.000Z',
    pad: ''
  })
  const line = bare.replace('"pad":""', `"pad":"${' '.repeat(255 - Buffer.byteLength(bare))}"`)
  return `${line}\n`
}

/** oh-my-pi's folder names changed between versions: this one is found by its sessions' cwd. */
export function writeOmpSession(h: FakeHomes, folder: string, text: string, name: string): string {
  return write(join(h.homes['oh-my-pi'], 'sessions', folder), name, text)
}

/** The corpus's real pi session (version 1, 1,019 lines, ../shared/corpus), as one of `cwd`'s. */
export function writeCorpusPiSession(piHome: string, cwd: string): string {
  const source = join(import.meta.dirname, '../../../shared/corpus/pi/large-session.v1.jsonl')
  const [first = '', ...rest] = readFileSync(source, 'utf8').split('\n')
  const header = { ...(JSON.parse(first) as object), cwd }
  return write(
    join(piHome, 'sessions', piFolder(cwd)),
    '2025-11-20T23-33-50-805Z_d703a1a9-1b7b-4fb1-b512-c9738b1fe617.jsonl',
    [JSON.stringify(header), ...rest].join('\n')
  )
}
