// Global setup for vitest and Playwright: returns the teardown that removes the run's temp folder.
import { removeRunTempRoot } from './temp-root'

export default function setup(): () => void {
  return removeRunTempRoot
}
