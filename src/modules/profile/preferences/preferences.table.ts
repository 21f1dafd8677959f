import type { Selectable } from 'kysely'

/** One JSON document per user and OAuth client; personal access tokens share the client key ''. */
export interface UserPreferencesTable {
  user_id: number
  client_key: string
  preferences: string
}

export type UserPreferencesRow = Selectable<UserPreferencesTable>
