import type { Selectable } from 'kysely'

/** A saved state: a named snapshot, or a baseline that a reset returns to. */
export interface ControlSnapshotTable {
  name: string
  kind: 'snapshot' | 'baseline'
  created: string
  size: number
  /** base64 of the gzip of the state's JSON. */
  payload: string
}

export type ControlSnapshotRow = Selectable<ControlSnapshotTable>
