// A foreign record we do not draw (a progress or system record, a record type or version we do
// not know), kept whole so the inspector can show it raw. It is anchored to the drawn record it
// hangs under (or follows in the file), which places it in a node of the graph. The tree does not
// know the type, so it keeps it in its records and otherwise ignores it.
import { isObject } from '../json'

export const FOREIGN_RECORD = 'foreign-record'

export interface ForeignRecord {
  type: typeof FOREIGN_RECORD
  /** The drawn record it belongs with; null before the first one. */
  anchor: string | null
  /** The line as the other program wrote it. */
  value: unknown
}

export function foreignRecord(anchor: string | null, value: unknown): ForeignRecord {
  return { type: FOREIGN_RECORD, anchor, value }
}

export function isForeignRecord(v: unknown): v is ForeignRecord {
  return isObject(v) && v.type === FOREIGN_RECORD
}
