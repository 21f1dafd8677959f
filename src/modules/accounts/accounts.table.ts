import type { Generated, Selectable } from 'kysely'

export interface AccountTable {
  id: Generated<number>
  uuid: string
  created: string
}

export type AccountRow = Selectable<AccountTable>
