// A full disk in the middle of an append, made real with a file-size limit (`ulimit -f`): the
// kernel writes part of the line and then refuses. Nothing already written may be lost, the error
// must reach the caller, and the part written is cut off again (no space needed), so the append
// is whole or absent for every later reader too and its space is free for the next one.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'

describe('a full disk mid-append', () => {
  it('reports the error, cuts off what it wrote, and the next append goes on from there', () => {
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
    // The big record's ~50 KB that fitted were cut off: the small one has room again.
    expect(child.stdout).toBe('big: EFBIG\nsmall: ok\n')

    const reopened = SessionStore.open(file)
    expect(reopened.tornTail).toBe(false)
    expect(reopened.problems).toEqual([])
    const next = reopened.appendMessage({ role: 'assistant', content: 'resumed' })
    reopened.close()

    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines).toHaveLength(5) // header, kept, after, resumed, and the end
    expect(lines.at(-1)).toBe('')
    expect(JSON.parse(lines.at(-2) as string).uuid).toBe(next.uuid)
    const again = SessionStore.open(file, { readOnly: true })
    const path = again.tree().activePath()
    expect(path.map((r) => r.uuid)[0]).toBe(first.uuid)
    expect(path.at(-1)?.uuid).toBe(next.uuid)
    expect(path).toHaveLength(3)
    again.close()
  })
})
