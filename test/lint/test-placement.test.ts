// Where a test lives (docs/architecture.md, "Where tests live"): a test of one module sits beside
// it under the module's name; a test under test/ drives several parts or a real process and is
// named for what it checks, so no name there is a module's; a browser spec is named for
// behaviour, never for the issue that asked for it.
import { readdirSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')

function filesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
}

const sources = filesUnder('src')
const modules = new Set(
  sources.filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
)
const moduleNames = new Set([...modules].map((file) => basename(file).replace(/\.tsx?$/, '')))

describe('where tests live', () => {
  it('puts every test under src/ beside the module it is named for', () => {
    const orphans = sources
      .filter((file) => /\.test\.tsx?$/.test(file))
      .filter((test) => {
        const name = test.replace(/\.test\.tsx?$/, '')
        return !modules.has(`${name}.ts`) && !modules.has(`${name}.tsx`)
      })
    expect(orphans).toEqual([])
  })

  it('names no test under test/ after a module, which would belong beside it', () => {
    const named = filesUnder('test')
      .filter((file) => file.endsWith('.test.ts'))
      .filter((file) => moduleNames.has(basename(file, '.test.ts')))
      .map((file) => `${file} (${dirname(file)})`)
    expect(named).toEqual([])
  })

  it('names no browser spec after an issue', () => {
    const specs = filesUnder('e2e').filter((file) => file.endsWith('.spec.ts'))
    expect(specs.length).toBeGreaterThan(0)
    expect(specs.filter((file) => /issue/i.test(basename(file)))).toEqual([])
  })
})
