// What the commands on a session file share: where the app's files are, how a `COMMAND FILE …`
// starts, the model a command asks and how it runs on a session (--help and errors:
// command-failure.ts).
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { summaryFailure } from '../core/agent/summary/summarize'
import { sessionExists } from '../core/session/load'
import { rewindStudioHome } from '../core/session/paths'
import { SessionStore } from '../core/session/store'
import { ModelSetup } from '../core/studio/model-setup'
import { memorySecrets } from '../core/studio/secret-store'
import { CodedError } from '../shared/coded-error'
import type * as EnsureBuild from '../../scripts/ensure-build.mjs'
import { failWith, wantsHelp } from './command-failure'
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
  if (!sessionExists(options.file)) {
    sayError(`${name}: no session file ${options.file}`)
    return 1
  }
  return options
}

/**
 * The model a command asks (summarize, merge --conversation): --model, then the settings (with
 * `--setting` overrides), then ANTHROPIC_MODEL; the demo script without a key and without --model.
 * The key is read from the environment only (no keychain in a command).
 */
export function commandModels(model: string | undefined, settings: string[] = []): ModelSetup {
  return new ModelSetup({
    home: rewindStudioHome(),
    appRoot,
    secrets: memorySecrets(),
    model,
    permissionMode: undefined,
    settingOverrides: settings,
    demoFallback: model === undefined
  })
}

/** What `body` is given: the session opened, and Ctrl-C as an abort signal once it is armed. */
export interface SessionCommand {
  store: SessionStore
  signal: AbortSignal
  /** From here on Ctrl-C aborts `signal` (a model's request) instead of ending the process. */
  stopOnInterrupt: () => void
}

/**
 * How a command that may change a session and ask the model runs: `before` (what must work
 * before the session is opened, such as setting up the model), then the session opened (for
 * writing unless `readOnly`: a session another process holds is refused, nothing changed), then
 * `body`. Any failure is one line and an exit code (failWith, a model's failure in words);
 * Ctrl-C's handler and the session are let go whatever happens.
 */
export async function runOnSession<Ready>(
  file: string,
  options: { readOnly?: boolean; before?: () => Promise<Ready> },
  body: (session: SessionCommand, ready: Ready) => Promise<number>
): Promise<number> {
  const abort = new AbortController()
  const stop = () => abort.abort()
  let store: SessionStore | null = null
  try {
    const ready = (await options.before?.()) as Ready
    store = SessionStore.open(file, { readOnly: options.readOnly === true })
    if (options.readOnly !== true && store.readOnlyReason !== null) {
      throw new SessionBusyError(
        'read_only',
        `cannot change ${file}: ${store.readOnlyReason}. Nothing was changed.`
      )
    }
    const session = {
      store,
      signal: abort.signal,
      stopOnInterrupt: () => process.on('SIGINT', stop)
    }
    return await body(session, ready)
  } catch (error) {
    return failWith(summaryFailure(error))
  } finally {
    process.off('SIGINT', stop)
    store?.close()
  }
}

/** A session the command must change is held by another process (or cannot be written). */
export class SessionBusyError extends CodedError {
  override name = 'SessionBusyError'
}
