// Wave 2 rule (findings 5 and 9 applied to what issue 12 adds): "strings that look like API keys
// are masked in every view the studio builds for the UI and in CLI output … untrusted text
// printed on a terminal goes through the one escape function … anything NEW you show the user
// (exports, summaries, compare views, foreign sessions) goes through both."
//
// A session whose prompts and files hold an Anthropic key and terminal escape sequences (a
// window title change, a clear screen, a carriage return). Compare (the studio's view and
// `cli diff`, text and --json), the rewind picker's prompts, the timeline's names and the Undo
// / Redo labels (the graph, `cli rewind --undo`) show neither; the files and the log keep them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  CheckpointView,
  CompareView,
  SessionGraph,
  TimelineEntry
} from '../../src/shared/views'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import { launchScriptedStudio } from '../support/scripted-studio'
import { runCli } from '../support/cli'
import { openSession, makeWorkspace } from '../rewind/fixture'

// Built at run time, so the test file itself holds nothing a secret scanner would flag.
const KEY = `sk-ant-api03-${'Xy7'.repeat(30)}AbCd`
const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\rall good'
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/

async function sessionWithSecrets() {
  const where = makeWorkspace()
  const s = await openSession(where)
  s.prompt(`use the key ${KEY} ${ESCAPES}`)
  await s.write('config.txt', `key = ${KEY}\n`)
  s.reply('stored')
  const second = s.prompt(`rotate ${KEY}${ESCAPES}`)
  await s.write('config.txt', `key = none ${ESCAPES}\n`)
  s.reply('rotated')
  await s.engine.rewind(second, 'code')
  await s.close()
  return s
}

describe('compare, the picker and the timeline mask keys and escape control characters', () => {
  it('in the studio’s views', async () => {
    const s = await sessionWithSecrets()
    const studio = await launchScriptedStudio({
      home: s.home,
      cwd: s.cwd,
      permissionMode: undefined
    })
    try {
      const handlers = createHandlers(studio)
      const value = async <T>(channel: string, args: unknown = {}) => {
        const reply = await dispatch(handlers, channel, args, () => {})
        if (!reply.ok) throw new Error(reply.error.message)
        return reply.value as T
      }
      const graph = await value<SessionGraph>('session:graph')
      const [first, second] = graph.nodes.map((n) => n.id) as [string, string]
      const shown = JSON.stringify([
        graph.undo,
        await value<CompareView>('compare', { a: first, b: second }),
        await value<CompareView>('compare', { a: first, b: 'current' }),
        await value('compare:file', { a: first, b: second, path: 'config.txt' }),
        await value<CheckpointView[]>('session:checkpoints', { leafUuid: null }),
        await value<TimelineEntry[]>('timeline:list')
      ])
      expect(shown).toContain('masked')
      expect(shown).not.toContain(KEY)
    } finally {
      await studio.close()
    }
    // The files and the log keep what was written and said.
    expect(readFileSync(join(s.cwd, 'config.txt'), 'utf8')).toBe(`key = ${KEY}\n`)
    expect(readFileSync(s.store.file, 'utf8')).toContain(KEY)
  })

  it('in cli diff (text and --json) and cli rewind --undo', async () => {
    const s = await sessionWithSecrets()
    const env = { REWIND_STUDIO_HOME: s.home }
    for (const args of [
      ['diff', s.store.file, '--from', '1', '--to', '2'],
      ['diff', s.store.file, '--from', '2', '--to', 'current', '--json'],
      ['rewind', s.store.file, '--undo']
    ]) {
      const run = await runCli(args, { env })
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('masked')
      expect(run.stdout).not.toContain(KEY)
      expect(run.stdout + run.stderr).not.toMatch(ACTIVE)
    }
  })
})
