// Vitest's global setup: the command line is built once (out/cli) before the suites start, so the
// tests that spawn `rewind-studio` run the built JavaScript, as a user's shell does, and do not
// all find a stale build at once.
import { ensureCliBuild } from '../../scripts/ensure-build.mjs'

export default function setup(): void {
  ensureCliBuild()
}
