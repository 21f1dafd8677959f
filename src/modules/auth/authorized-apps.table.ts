import type { Generated, Selectable } from 'kysely'

/** An OAuth client a user has authorized; its tokens live in `tokens` and die with it. */
export interface AuthorizedAppTable {
  id: Generated<number>
  user_id: number
  client_id: string
  label: string
  scopes: string
  website: string
  thumbnail_url: string
  created: string
  expiry: string | null
}

export type AuthorizedAppRow = Selectable<AuthorizedAppTable>
