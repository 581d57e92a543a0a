// A full disk in the middle of an append, made real with a file-size limit (`ulimit -f`): the
// kernel writes part of the line and then refuses. Nothing already written may be lost, the error
// must reach the caller, and the next process must read every complete record and append on a
// fresh line.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'

describe('a full disk mid-append', () => {
  it('reports the error, keeps every complete record, and the next append starts a fresh line', () => {
    const store = SessionStore.create({ home: mkdtempSync(join(tmpdir(), 'rs-full-')), cwd: '/w' })
    const first = store.appendMessage({ role: 'user', content: 'kept' })
    const file = store.file
    store.close()
    const sizeBefore = statSync(file).size

    // `ulimit -f` counts 512-byte blocks: room for the file plus ~50 KB, not for a 200 KB line.
    const blocks = Math.ceil(sizeBefore / 512) + 100
    const child = spawnSync(
      'bash',
      [
        '-c',
        `ulimit -f ${blocks} && exec "${process.execPath}" --import tsx "$0" "$1"`,
        join(import.meta.dirname, 'fixtures/append-past-limit.ts'),
        file
      ],
      { encoding: 'utf8' }
    )
    expect(child.stderr).toBe('')
    expect(child.stdout).toBe('big: EFBIG\nsmall: EFBIG\n')
    expect(statSync(file).size).toBeGreaterThan(sizeBefore) // a torn piece of the line is there

    const reopened = SessionStore.open(file)
    expect(reopened.tornTail).toBe(true)
    expect(reopened.problems.map((p) => p.kind)).toContain('torn-tail')
    expect(reopened.leafUuid).toBe(first.uuid)
    const next = reopened.appendMessage({ role: 'assistant', content: 'resumed' })
    reopened.close()

    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines.at(-1)).toBe('')
    expect(JSON.parse(lines.at(-2) as string).uuid).toBe(next.uuid)
    const again = SessionStore.open(file, { readOnly: true })
    expect(
      again
        .tree()
        .activePath()
        .map((r) => r.uuid)
    ).toEqual([first.uuid, next.uuid])
    again.close()
  })
})
