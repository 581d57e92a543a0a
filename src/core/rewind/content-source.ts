// Where a restore takes the content it gives each file. The rewind engine is one engine whatever
// the source: our blob store (the session's own backups, named by sha256), or another tool's
// backups (Claude Code's file-history, named by its own backup file names: rescue.ts). The undo
// backups of what a restore overwrites always go to our blob store, whatever the source.
import { CodedError } from '../../shared/coded-error'
import type { BlobStore } from '../files/blob-store'

export interface ContentSource {
  /** The content `ref` names; throws ContentMissingError (or BlobMissingError) when it is gone. */
  read(ref: string): Buffer
  /** The sha256 of that content (our blobs are named by it; another source reads and hashes). */
  hashOf(ref: string): string
}

/** The content a ref names is not there (pruned, never kept, or no backup name at all). */
export class ContentMissingError extends CodedError {
  constructor(readonly reason: string) {
    super('not_found', reason)
    this.name = 'ContentMissingError'
  }
}

/** Our blob store as a source: a ref is the content's sha256. */
export function blobContent(blobs: BlobStore): ContentSource {
  return { read: (hash) => blobs.read(hash), hashOf: (hash) => hash }
}
