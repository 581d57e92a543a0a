// What the OS said about a failed write, in words a user can act on, with the file named:
// "Could not write notes.txt: the disk is full (ENOSPC); the file was left as it was". Node's own
// text ("ENOSPC: no space left on device, write") names neither the file nor what became of it.
import { CodedError } from '../../shared/coded-error'

/** The OS codes a user can do something about, in words. */
const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file would be larger than the system allows',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EEXIST: 'a file is in the way',
  EISDIR: 'a folder is in the way',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many files are open',
  EIO: 'the disk reported an input/output error'
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/**
 * Why an operation failed, for a message that names its file itself: "the disk is full
 * (ENOSPC)" for an OS code above; a WriteFailedError's own message (it names its file); any
 * other error's message.
 */
export function failureReason(error: unknown): string {
  if (error instanceof WriteFailedError) return error.message
  const code = errnoCode(error)
  const words = code === undefined ? undefined : REASONS[code]
  if (words !== undefined) return `${words} (${code})`
  return error instanceof Error ? error.message : String(error)
}

/**
 * One line for an OS error this module has words for, with the path Node gives for it (open,
 * mkdir, rename…): "/x/y: the disk is full (ENOSPC)"; null for any other error.
 */
export function osErrorLine(error: unknown): string | null {
  const code = errnoCode(error)
  if (code === undefined || REASONS[code] === undefined) return null
  const path = (error as { path?: unknown }).path
  return `${typeof path === 'string' ? `${path}: ` : ''}${failureReason(error)}`
}

/** A write the OS refused, naming the file and, where the writer knows it, what became of it. */
export class WriteFailedError extends CodedError {
  /** The OS code (ENOSPC, EFBIG, …), kept for callers that branch on it. */
  readonly osCode: string | undefined

  constructor(
    readonly file: string,
    cause: unknown,
    outcome?: string
  ) {
    const reason = failureReason(cause)
    super(
      'unavailable',
      `Could not write ${file}: ${reason}${outcome === undefined ? '' : `; ${outcome}`}`,
      {
        cause
      }
    )
    this.name = 'WriteFailedError'
    this.osCode = errnoCode(cause)
  }
}
