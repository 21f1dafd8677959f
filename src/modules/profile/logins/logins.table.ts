import type { Generated, Selectable } from 'kysely'

/** A login attempt recorded by the login service; username and restricted as they were then. */
export interface LoginTable {
  id: Generated<number>
  user_id: number
  username: string
  ip: string
  status: string
  restricted: boolean
  datetime: string
}

export type LoginRow = Selectable<LoginTable>
