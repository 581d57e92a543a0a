// Every expected failure of the core is a CodedError with its contract code: dispatch answers it
// as {code, message} with no stack logged, and the CLI prints its message alone. Each failure
// here is made by the real code that raises it (a refused folder, a path out of the workspace, a
// backup not in the store, bad arguments, a broken settings file), except the session too big
// to open, made as the store makes it (five million records is too much for a unit test).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ErrorCode, Handlers } from '../../src/shared/contract'
import { CodedError } from '../../src/shared/coded-error'
import { dispatch } from '../../src/core/studio/dispatch'
import { failWith } from '../../src/cli/command-failure'
import { BlobStore } from '../../src/core/files/blob-store'
import { checkWorkspaceFolder } from '../../src/core/files/workspace-root'
import { resolveInWorkspace } from '../../src/core/files/workspace-paths'
import { MAX_RECORDS, TooManyRecordsError } from '../../src/core/session/jsonl'
import { parseLaunchArgs } from '../../src/core/studio/launch-options'
import { readSettings } from '../../src/core/settings'

const base = mkdtempSync(join(tmpdir(), 'rs-coded-'))
const thrown = (run: () => unknown): unknown => {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('it did not throw')
}

function failures(): Array<[string, unknown, ErrorCode]> {
  const home = join(base, 'home')
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, 'settings.json'), '{"model": 7}')
  const blobs = join(base, 'blobs')
  mkdirSync(blobs, { recursive: true })
  return [
    ['a refused folder', thrown(() => checkWorkspaceFolder('/', home)), 'refused'],
    ['a path out of the workspace', thrown(() => resolveInWorkspace(base, '../x')), 'refused'],
    ['a missing backup', thrown(() => new BlobStore(blobs).read('ab'.repeat(32))), 'not_found'],
    ['bad arguments', thrown(() => parseLaunchArgs(['--no-such-flag'])), 'invalid_payload'],
    ['broken settings', thrown(() => readSettings(home)), 'invalid_payload'],
    ['a session too big', new TooManyRecordsError(MAX_RECORDS, 'big.jsonl'), 'refused']
  ]
}

afterEach(() => vi.restoreAllMocks())

describe('expected failures', () => {
  it('are CodedErrors that dispatch answers with their code, logging nothing', async () => {
    for (const [what, error, code] of failures()) {
      expect(error, what).toBeInstanceOf(CodedError)
      const logged: string[] = []
      const handlers = {
        'app:info': async () => {
          throw error
        }
      } as unknown as Handlers
      const reply = await dispatch(handlers, 'app:info', {}, (line) => logged.push(line))
      expect(reply, what).toEqual({
        ok: false,
        error: { code, message: (error as Error).message }
      })
      expect(logged, what).toEqual([])
    }
  })

  it('reach the CLI user as one line, no stack', () => {
    const said: string[] = []
    vi.spyOn(console, 'error').mockImplementation((text: string) => said.push(text))
    for (const [what, error] of failures()) {
      said.length = 0
      const status = failWith(error)
      expect(said, what).toEqual([`rewind-studio: ${(error as Error).message}`])
      expect(status, what).toBe(what === 'bad arguments' ? 2 : 1)
    }
  })
})
