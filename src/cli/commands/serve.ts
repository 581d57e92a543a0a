// `rewind-studio serve`: the web host without trying Electron. Opens the workspace on its latest
// session and prints the URL (with this run's token) to open in a browser.
import { join } from 'node:path'
import { folderLauncher, launchStudio } from '../../core/studio/launch'
import { parseLaunchArgs } from '../../core/studio/launch-options'
import { validatingSink } from '../../core/studio/events'
import { internalErrorNotice, surviveUncaught } from '../../core/os/survive-uncaught'
import { memorySecrets } from '../../core/studio/secret-store'
import { WorkspaceHost } from '../../core/studio/workspace-host'
import type { EventChannel } from '../../shared/contract'
import { startWebHost } from '../../web/server'
import { appRoot, ensureAppBuild } from '../cli-support'
import { failWith, wantsHelp } from '../command-failure'
import { say } from '../format'

const usage = `Usage: rewind-studio serve [--cwd DIR] [--port N] [--model M] [--permission-mode MODE]
                           [--setting key=value ...] [--demo]

Serves Rewind Studio at http://127.0.0.1:PORT/?token=… for workspace DIR (default: the current
directory), on its latest session. Without an API key the built-in scripted model answers;
--demo opens the demo workspace instead of DIR.`

/** How long a stop signal waits for the running turn to wind down before leaving anyway. */
const SHUTDOWN_GRACE_MS = 5_000

/** Whether `promise` settles (either way) within `ms`. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    const settled = () => {
      clearTimeout(timer)
      resolve(true)
    }
    promise.then(settled, settled)
  })
}

export async function run(args: string[]): Promise<number> {
  if (wantsHelp(args)) {
    console.log(usage)
    return 0
  }
  try {
    const options = parseLaunchArgs(args)
    await ensureAppBuild()
    let broadcast: (event: EventChannel, payload: unknown) => void = () => {}
    const emit = validatingSink((event, payload) => broadcast(event, payload))
    const secrets = memorySecrets()
    const launchOptions = { ...options, appRoot, secrets, emit }
    const studio = await launchStudio(launchOptions)
    const workspaces = new WorkspaceHost(studio, {
      home: options.home,
      launch: folderLauncher(launchOptions),
      switched: (workspace) => emit('workspace:changed', { workspace })
    })
    const host = await startWebHost({
      handlers: workspaces.handlers(),
      staticDir: join(appRoot, 'out/renderer'),
      port: options.port
    })
    broadcast = host.broadcast
    surviveUncaught((message, error) => {
      console.error(
        `rewind-studio: an error outside any request (the host goes on): ${error instanceof Error ? (error.stack ?? message) : message}`
      )
      emit('agent:event', { type: 'notice', level: 'error', message: internalErrorNotice(message) })
    })
    const info = studio.info()
    console.log(`Rewind Studio: ${info.workspace} (${info.model})`)
    for (const notice of info.notices) say(`  note: ${notice}`)
    console.log(`Open ${host.url}`)
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    const closed = (async () => {
      await host.close()
      await workspaces.close()
    })()
    if (!(await settlesWithin(closed, SHUTDOWN_GRACE_MS))) {
      // The session log holds every record written so far; the writer lock goes with the
      // process (session/lock.ts releases it on exit).
      console.error(
        `rewind-studio: the running turn did not stop within ${SHUTDOWN_GRACE_MS / 1000} s; leaving without it.`
      )
      process.exit(1)
    }
    await closed
    return 0
  } catch (error) {
    return failWith(error)
  }
}
