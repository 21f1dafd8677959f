import type { Generated, Selectable } from 'kysely'

/** Personal access tokens and OAuth tokens (those have an authorized app). Secrets are stored hashed. */
export interface TokenTable {
  id: Generated<number>
  user_id: number
  authorized_app_id: number | null
  label: string
  scopes: string
  /** Hex SHA-256 of the secret. */
  token_hash: string
  /** The first 16 characters of the secret, all that is shown after creation. */
  token_prefix: string
  created: string
  expiry: string | null
}

export type TokenRow = Selectable<TokenTable>
