import type { Generated, Selectable, Updateable } from 'kysely'

export interface AccountTable {
  id: Generated<number>
  uuid: string
  created: string
  /** Contact fields (`PUT /account`), empty until set. */
  company: Generated<string>
  email: Generated<string>
  first_name: Generated<string>
  last_name: Generated<string>
  address_1: Generated<string>
  address_2: Generated<string>
  city: Generated<string>
  state: Generated<string>
  zip: Generated<string>
  country: Generated<string>
  phone: Generated<string>
  tax_id: Generated<string>
}

export type AccountRow = Selectable<AccountTable>
export type AccountRowUpdate = Updateable<AccountTable>
