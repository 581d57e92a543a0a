// A command line or launch option that cannot be used: exit code 2 with the usage (cli/args.ts,
// cli/command-failure.ts). A module of its own, so a command that only reports errors loads no
// launch options (their zod schemas).
import { CodedError } from '../../shared/coded-error'

export class UsageError extends CodedError {
  override name = 'UsageError'
  constructor(message: string) {
    super('invalid_payload', message)
  }
}
