import type { Selectable } from 'kysely'

/** An OAuth client registered by an account; its secret is stored only as a SHA-256 hash. */
export interface OAuthClientTable {
  /** 20 hex characters, public: it names the client in authorization requests. */
  id: string
  account_id: number
  label: string
  redirect_uri: string
  public: boolean
  secret_hash: string
  status: string
  thumbnail_url: string | null
  created: string
}

export type OAuthClientRow = Selectable<OAuthClientTable>
