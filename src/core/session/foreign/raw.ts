// A foreign record we do not draw (a progress or system record, a record type or version we do
// not know), kept whole so the inspector can show it raw. It is anchored to the drawn record it
// hangs under (or follows in the file), which places it in a node of the graph. The tree does not
// know the type, so it keeps it in its records and otherwise ignores it.
import { isObject } from '../json'
import type { SessionTree } from '../tree'

export const FOREIGN_RECORD = 'foreign-record'

export interface ForeignRecord {
  type: typeof FOREIGN_RECORD
  /** The drawn record it belongs with; null before the first one. */
  anchor: string | null
  /** The line as the other program wrote it. */
  value: unknown
  /**
   * A link of the other tool's chain (its id): records naming it hang from `anchor`, those that
   * came before it included (addMapped).
   */
  link?: string
}

export function foreignRecord(anchor: string | null, value: unknown, link?: string): ForeignRecord {
  return { type: FOREIGN_RECORD, anchor, value, ...(link === undefined ? {} : { link }) }
}

/** Adds a record a mapper made to `tree`; a chain link stands for its anchor (standFor). */
export function addMapped(tree: SessionTree, record: unknown): void {
  tree.addRecord(record)
  if (isForeignRecord(record) && record.link !== undefined)
    tree.standFor(record.link, record.anchor)
}

export function isForeignRecord(v: unknown): v is ForeignRecord {
  return isObject(v) && v.type === FOREIGN_RECORD
}
