// How the commands read their options: one error for a command line that cannot be used (exit
// code 2, the usage printed), one way to take an option's value.
import { UsageError } from '../core/studio/usage-error'

export { UsageError }

/**
 * The value of the option at `args[at - 1]`, or a UsageError naming the option when it has
 * none: missing, or empty (an unset shell variable must not pass for a value).
 */
export function optionValue(args: readonly string[], at: number): string {
  const value = args[at]
  if (value === undefined || value === '') {
    throw new UsageError(`${args[at - 1]} needs a value${value === '' ? ', not ""' : ''}`)
  }
  return value
}
