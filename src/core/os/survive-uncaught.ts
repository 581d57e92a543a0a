// A host's last line of defence (`serve`, the desktop's main process). An exception thrown
// outside any request (in a timer, an fs.watch callback, a promise nobody awaits) would end the
// process, and every page with it: Node's default for both an uncaught exception and an
// unhandled rejection. Every path known to run outside a request turns its failures into values
// or notices itself (dispatch for requests, the studio's graph push, the file tail's timers);
// this catches what they missed, says so, and the host goes on serving.
import { format } from 'node:util'

/** Reports each uncaught exception or unhandled rejection instead of ending the process. */
export function surviveUncaught(report: (message: string, error: unknown) => void): () => void {
  const onError = (error: unknown) => {
    try {
      report(error instanceof Error ? error.message : format(error), error)
    } catch {
      // A report that fails must not end the process either.
    }
  }
  process.on('uncaughtException', onError)
  process.on('unhandledRejection', onError)
  return () => {
    process.off('uncaughtException', onError)
    process.off('unhandledRejection', onError)
  }
}

/** What the pages are told of one (the stack goes to the host's log only). */
export function internalErrorNotice(message: string): string {
  return `Internal error outside any request: ${message}. The app goes on; the host's log has the details.`
}
