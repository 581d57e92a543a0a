// The records a session copies from another of its workspace (SessionStore.appendCopied: a fork,
// fork.ts; a parallel run's start, core/parallel/launcher.ts). Each conversation node keeps its
// uuid, type, content and time and becomes the child of the node before it (the first, the
// child of the leaf), so the copy is one chain whose last node is the leaf; the file changes of
// its turns follow as records of this session (new uuid, this time) naming the record they copy
// (`copyOf`); then its labels, as new label records. Built and checked here, written by the store
// in one write: all of them, or none.
import { NotFoundError } from '../../shared/coded-error'
import { FileChangeRecord, KnownRecord, LabelRecord } from './records'
import { SessionWriteError } from './session-write-error'
import { type SessionTree, type TreeRecord, isConversationNode } from './tree'
import { uuidv7 } from './uuid-v7'

export interface CopiedRecords {
  nodes: readonly TreeRecord[]
  fileChanges: readonly FileChangeRecord[]
  labels: readonly { targetUuid: string; label: string }[]
}

export function copiedRecords(
  tree: SessionTree,
  copy: CopiedRecords,
  now: () => string
): { uuid: string }[] {
  const taken = new Set<string>()
  const fresh = (uuid: string) => {
    if (taken.has(uuid) || tree.has(uuid)) {
      throw new SessionWriteError(
        `Record ${uuid} cannot be copied: its uuid is taken; nothing was appended`
      )
    }
    taken.add(uuid)
  }
  let parentUuid = tree.leafUuid
  const nodes = copy.nodes.map((node) => {
    fresh(node.uuid)
    const parsed = KnownRecord.safeParse({ ...node, parentUuid })
    if (!parsed.success || !isConversationNode(parsed.data)) {
      throw new SessionWriteError(
        `Record ${node.uuid} cannot be copied: ${parsed.success ? 'it is no conversation node' : (parsed.error.issues[0]?.message ?? 'it is not valid')}; nothing was appended`
      )
    }
    parentUuid = node.uuid
    return parsed.data
  })
  const requireNode = (uuid: string) => {
    if (!taken.has(uuid) && tree.get(uuid) === undefined) {
      throw new NotFoundError(`Entry ${uuid} not found`)
    }
  }
  const meta = () => ({ uuid: uuidv7(), parentUuid, timestamp: now() })
  const fileChanges = copy.fileChanges.map((change) => {
    requireNode(change.checkpointUuid)
    return FileChangeRecord.parse({ ...change, ...meta(), copyOf: change.copyOf ?? change.uuid })
  })
  const labels = copy.labels.map(({ targetUuid, label }) => {
    requireNode(targetUuid)
    return LabelRecord.parse({ type: 'label', ...meta(), targetUuid, label })
  })
  return [...nodes, ...fileChanges, ...labels]
}
