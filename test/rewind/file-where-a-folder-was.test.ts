// The hostile sweep (stop 46): the session wrote d/inner.txt, a later turn removed d/, and the
// user then put a file named d there. `rewind --to 2 --dry-run` planned "recreate d/inner.txt"
// (rc 0) where the real rewind refused at its mkdir ("a file is in the way (EEXIST)"). The plan
// now refuses as the apply would, naming the file in the way, and leaves it as it is; a file the
// restore itself deletes (the session made it) is no obstacle: the two trade places.
//
// Real git repository, the agent's real Write and Bash tools, real file history and rewind.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { runCliSync } from '../support/cli'
import { type ToolSession, openToolSession } from '../support/tool-session'

const open: ToolSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})

/** Turn 1 writes d/inner.txt, turn 2 removes d/ with Bash. */
async function folderMadeThenRemoved(): Promise<ToolSession> {
  const s = await openToolSession({ files: { 'README.md': 'hi\n' } })
  open.push(s)
  s.prompt('make d/inner.txt')
  await s.write('d/inner.txt', 'inner\n')
  s.reply('done')
  s.prompt('remove d')
  await s.bash('rm -r d')
  s.reply('done')
  return s
}

describe('a rewind that recreates a file where a file now stands in place of its folder', () => {
  it('is refused at the plan, as the apply refuses it, the file in the way kept', async () => {
    const s = await folderMadeThenRemoved()
    writeFileSync(join(s.cwd, 'd'), 'mine\n')
    const refusal =
      /Cannot put d\/inner\.txt back: d is not a folder now \(a file is in the way, made since\)\. Move it and try again\. Nothing was changed\./
    await expect(s.engine.planRewind(checkpointAt(s.store, 2), 'both')).rejects.toThrow(refusal)
    await s.close()
    open.splice(open.indexOf(s), 1)

    // The dry run says what the rewind says, both refused.
    for (const args of [['--dry-run'], []]) {
      const run = runCliSync(s.home, 'rewind', s.store.file, '--to', '2', ...args)
      expect(run.code, args.join(' ')).toBe(1)
      expect(run.err, args.join(' ')).toMatch(refusal)
    }
    expect(readFileSync(join(s.cwd, 'd'), 'utf8')).toBe('mine\n')
  })

  it('goes through when the file in the way is one the same restore deletes', async () => {
    const s = await folderMadeThenRemoved()
    s.prompt('make d a file')
    await s.write('d', 'made by the session\n')
    s.reply('done')
    const { plan } = await s.rewindTo(2)
    expect(plan.files.map((f) => [f.path, f.action])).toEqual([
      ['d', 'delete'],
      ['d/inner.txt', 'recreate']
    ])
    expect(s.read('d/inner.txt')?.toString()).toBe('inner\n')
  })
})
