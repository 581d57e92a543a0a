// The files a Codex CLI apply_patch call changes (codex-patch.ts), on patches in Codex's own
// grammar (openai/codex codex-rs/apply-patch/src/parser.rs: markers, padding, the heredoc its
// lenient mode strips) and the call forms its invocation.rs accepts; and on what a hostile
// rollout could hold: paths out of the workspace, malformed or huge patches, never an exception.
import { describe, expect, it } from 'vitest'
import {
  MAX_PATCH_CHARS,
  MAX_PATCH_FILES,
  parsePatch,
  patchOfCall,
  patchedFiles
} from './codex-patch'

const CWD = '/home/u/project'
const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n')
const files = (text: string, workdir: string | null = null) =>
  patchedFiles(text, CWD, workdir).map((f) => `${f.action} ${f.path}`)

describe('the files of a Codex patch', () => {
  it('names a file added, updated, deleted and moved, each relative to the cwd', () => {
    expect(files(patch('*** Add File: docs/new.md', '+# New', '+'))).toEqual(['added docs/new.md'])
    expect(files(patch('*** Update File: notes.txt', '@@', '-one', '+ONE', ' two'))).toEqual([
      'updated notes.txt'
    ])
    expect(files(patch('*** Delete File: old.txt'))).toEqual(['deleted old.txt'])
    expect(
      files(patch('*** Update File: src/a.ts', '*** Move to: src/b/a.ts', '@@ fn()', '-x', '+y'))
    ).toEqual(['moved-away src/a.ts', 'moved-here src/b/a.ts'])
  })

  it('names every file of a patch of several, in order, chunks and end-of-file markers read past', () => {
    const text = patch(
      '*** Add File: a.txt',
      '+a',
      '*** Update File: b.txt',
      '@@ class B',
      ' keep',
      '-old',
      '+new',
      '',
      '@@ def g():',
      '-    pass',
      '+    return 1',
      '*** End of File',
      '*** Delete File: c.txt',
      '*** Update File: d.txt',
      ' import foo',
      '+bar',
      '*** Update File: e.txt',
      '*** Move to: f.txt',
      '@@',
      '-e',
      '+f'
    )
    expect(files(text)).toEqual([
      'added a.txt',
      'updated b.txt',
      'deleted c.txt',
      'updated d.txt',
      'moved-away e.txt',
      'moved-here f.txt'
    ])
  })

  it("reads what Codex's lenient parser reads: padded markers, CRLF, a heredoc around the patch", () => {
    expect(files('  *** Begin Patch  \r\n*** Add File: x.txt\r\n+x\r\n *** End Patch\r\n')).toEqual(
      ['added x.txt']
    )
    expect(files(`<<'EOF'\n${patch('*** Delete File: y.txt')}EOF\n`)).toEqual(['deleted y.txt'])
    expect(files('<<EOF\n*** Begin Patch\n*** Delete File: z.txt\n*** End Patch\nEOF')).toEqual([
      'deleted z.txt'
    ])
    expect(parsePatch(patch())).toEqual([])
  })

  it('names nothing of a patch Codex would reject (it applies none of it)', () => {
    const rejected = [
      '',
      'not a patch',
      '*** Add File: a.txt\n+a\n*** End Patch',
      '*** Begin Patch\n*** Add File: a.txt\n+a',
      patch('*** Update File: empty.txt'),
      patch('*** Frobnicate File: a.txt'),
      patch('*** Add File: a.txt', '+a', 'stray line'),
      patch('*** Update File: a.txt', '@@', '-a', '+b', 'junk', '*** Delete File: b.txt'),
      patch('*** Update File: a.txt', '@@', '*** End of File'),
      patch('*** Update File: a.txt', '-a', '+b', '', 'no context marker'),
      patch('*** Update File: a.txt', '@@'),
      `<<'EOF'\n*** Begin Patch\n*** End Patch\nnope`
    ]
    for (const text of rejected) expect([text, files(text)]).toEqual([text, []])
  })

  it('leaves out a path outside the cwd: absolute elsewhere, or climbing out with ..', () => {
    const text = patch(
      '*** Add File: /etc/passwd',
      '+x',
      '*** Delete File: ../sibling/file.txt',
      '*** Delete File: a/../../escape.txt',
      '*** Update File: inside.txt',
      '*** Move to: /tmp/outside.txt',
      '@@',
      '-a',
      '+b',
      '*** Add File: /home/u/project/sub/abs.txt',
      '+x',
      '*** Add File: /home/u/project-other/near.txt',
      '+x',
      '*** Delete File: ./sub/../kept.txt',
      '*** Delete File: .',
      '*** Delete File: nul\0byte.txt',
      '*** Delete File: ..'
    )
    expect(files(text)).toEqual(['moved-away inside.txt', 'added sub/abs.txt', 'deleted kept.txt'])
    // A session without an absolute cwd places no path.
    expect(patchedFiles(patch('*** Delete File: a.txt'), '', null)).toEqual([])
    expect(patchedFiles(patch('*** Delete File: a.txt'), 'relative/dir', null)).toEqual([])
  })

  it("resolves paths against the call's folder, which stays bound to the cwd", () => {
    const text = patch('*** Delete File: a.txt')
    expect(files(text, 'sub')).toEqual(['deleted sub/a.txt'])
    expect(files(text, '/home/u/project/sub')).toEqual(['deleted sub/a.txt'])
    expect(files(text, '..')).toEqual([])
    expect(files(text, '/elsewhere')).toEqual([])
  })

  it('bounds the work: a huge patch, or one of too many files, names none; garbage never throws', () => {
    expect(files(patch('*** Add File: big.txt', `+${'x'.repeat(MAX_PATCH_CHARS)}`))).toEqual([])
    const many = Array.from({ length: MAX_PATCH_FILES + 1 }, (_, i) => `*** Delete File: f${i}`)
    expect(files(patch(...many))).toEqual([])
    expect(files(patch(...many.slice(0, MAX_PATCH_FILES)))).toHaveLength(MAX_PATCH_FILES)
    const alphabet = ['*** ', 'Begin Patch', 'End Patch', 'Add File: ', '@@', '\n', '+', '-', ' ']
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: next() % 40 }, () => alphabet[next() % 9]).join('')
      expect(() => patchedFiles(text, CWD, null)).not.toThrow()
    }
  })
})

describe('the patch of a Codex tool call', () => {
  const p = patch('*** Add File: a.txt', '+a')

  it('reads apply_patch as a custom tool call (its freeform input) and as a function call', () => {
    expect(patchOfCall('apply_patch', { input: p })).toEqual({ patch: p, workdir: null })
    expect(patchOfCall('applypatch', { input: p, workdir: 'sub' })).toEqual({
      patch: p,
      workdir: 'sub'
    })
    expect(patchOfCall('apply_patch', { arguments: 'not json' })).toBeNull()
  })

  it('reads a shell call running apply_patch, directly or through a heredoc in bash -lc', () => {
    expect(patchOfCall('shell', { command: ['apply_patch', p], workdir: '/w' })).toEqual({
      patch: p,
      workdir: '/w'
    })
    const script = `apply_patch <<'EOF'\n${p}EOF\n`
    expect(patchOfCall('shell', { command: ['bash', '-lc', script] })?.patch).toBe(p.trimEnd())
    expect(patchOfCall('shell', { command: ['/bin/zsh', '-c', script] })?.patch).toBe(p.trimEnd())
    expect(patchOfCall('exec_command', { cmd: `cd sub && ${script}` })).toEqual({
      patch: p.trimEnd(),
      workdir: 'sub'
    })
    expect(patchOfCall('exec_command', { cmd: `cd 'my dir' && ${script}`, workdir: 'w' })).toEqual({
      patch: p.trimEnd(),
      workdir: 'w/my dir'
    })
  })

  it('reads no patch from a command that does more than apply_patch, or is none', () => {
    const script = `apply_patch <<'EOF'\n${p}EOF`
    const none = [
      patchOfCall('exec_command', { cmd: `echo hi; ${script}` }),
      patchOfCall('exec_command', { cmd: `${script}\necho done` }),
      patchOfCall('exec_command', { cmd: 'printf x > notes.txt' }),
      patchOfCall('shell', { command: ['python', '-c', script] }),
      patchOfCall('shell', { command: ['bash', '-lc', script, 'extra'] }),
      patchOfCall('shell', { command: ['apply_patch', 7] }),
      patchOfCall('shell', { command: 'apply_patch' }),
      patchOfCall(null, null)
    ]
    expect(none).toEqual(none.map(() => null))
  })
})
