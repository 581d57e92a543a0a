// The file-length cap's exceptions only shrink: each listed file is still over the cap (a file
// split below it leaves the list), and lint holds each at its listed size (it may not grow).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: the lint config is plain JavaScript, without types
import { overTheCap } from '../../eslint.config.js'

const root = join(import.meta.dirname, '../..')
const listed = Object.entries(overTheCap as Record<string, number>)

describe('the file-length cap', () => {
  it('lists only files still over 600 code lines, each at its size', async () => {
    const eslint = new ESLint({ cwd: root })
    for (const [file, lines] of listed) {
      expect(existsSync(join(root, file)), file).toBe(true)
      const config = (await eslint.calculateConfigForFile(file)) as {
        rules: Record<string, unknown>
      }
      expect(config.rules['max-lines'], file).toEqual([
        2,
        { max: lines, skipBlankLines: true, skipComments: true }
      ])
      // One line under its listed size, the file is refused: it is at its size, not below.
      const [result] = await eslint.lintFiles([file])
      expect(result?.messages ?? [], file).toEqual([])
      const tighter = new ESLint({
        cwd: root,
        overrideConfig: [
          {
            files: [file],
            rules: {
              'max-lines': ['error', { max: lines - 1, skipBlankLines: true, skipComments: true }]
            }
          }
        ]
      })
      const [tight] = await tighter.lintFiles([file])
      expect(
        tight?.messages.map((m) => m.ruleId),
        file
      ).toContain('max-lines')
      expect(lines, file).toBeGreaterThan(600)
    }
  }, 120_000)
})
