import type { Generated, Selectable } from 'kysely'

/** A fault rule: which requests it matches, how often, and what it does to them (`effect`, JSON). */
export interface ControlFaultTable {
  id: Generated<number>
  created: string
  method: string | null
  path: string | null
  account_id: number | null
  token_id: number | null
  probability: number
  times: number | null
  fired: number
  seed: string | null
  preset: string | null
  effect: string
}

export type FaultRow = Selectable<ControlFaultTable>
