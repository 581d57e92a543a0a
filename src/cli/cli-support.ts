// What every command shares: where the app's files are, --help detection, and turning an error
// into one clear line and an exit code (no stack traces for expected failures).
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { osErrorLine } from '../core/os/write-failure'
import { CodedError } from '../shared/coded-error'
import { UsageError } from '../core/studio/launch-options'
import type * as EnsureBuild from '../../scripts/ensure-build.mjs'
import { sayError } from './format'

/**
 * The project folder (package.json, demo/, out/): the nearest folder above this module holding a
 * package.json, whether it runs from src/cli or from the build in out/cli.
 */
export const appRoot = findUp(dirname(fileURLToPath(import.meta.url)))

function findUp(dir: string): string {
  if (existsSync(join(dir, 'package.json'))) return dir
  const parent = dirname(dir)
  if (parent === dir) throw new Error('rewind-studio: cannot find its package.json')
  return findUp(parent)
}

/**
 * Builds the app's renderer (and the rest of out/) when it is older than the sources. The script
 * is loaded from the project folder at run time, never bundled into the CLI: it finds the project
 * from where it lies.
 */
export async function ensureAppBuild(): Promise<void> {
  const script = pathToFileURL(join(appRoot, 'scripts/ensure-build.mjs')).href
  const { ensureBuild } = (await import(script)) as typeof EnsureBuild
  ensureBuild()
}

export function wantsHelp(args: string[]): boolean {
  return args.includes('--help') || args.includes('-h')
}

/**
 * How every `COMMAND FILE …` starts: --help prints the usage (exit 0), options `parse` refuses
 * are said with the usage (2), a FILE that does not exist is named (1). Returns the options, or
 * the exit code to end with.
 */
export function startFileCommand<Options extends { file: string }>(
  name: string,
  args: string[],
  usage: string,
  parse: (args: string[]) => Options
): Options | number {
  if (wantsHelp(args)) {
    console.log(usage)
    return 0
  }
  let options: Options
  try {
    options = parse(args)
  } catch (error) {
    sayError(`${name}: ${(error as Error).message}\n\n${usage}`)
    return 2
  }
  if (!existsSync(options.file)) {
    sayError(`${name}: no session file ${options.file}`)
    return 1
  }
  return options
}

export function failWith(error: unknown): number {
  // Every expected failure of the core is a CodedError (lint holds it): its message, no stack.
  if (error instanceof CodedError) {
    sayError(`rewind-studio: ${error.message}`)
    return error instanceof UsageError ? 2 : 1
  }
  // A full disk, a read-only folder…: the user's to fix, said in words, not as a stack trace.
  const osLine = osErrorLine(error)
  if (osLine !== null) {
    sayError(`rewind-studio: ${osLine}`)
    return 1
  }
  sayError(
    `rewind-studio: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`
  )
  return 1
}
