import type { Generated, Selectable } from 'kysely'

/** A remember-me session of the login service; its secret is stored only as a digest. */
export interface TrustedDeviceTable {
  id: Generated<number>
  user_id: number
  secret_digest: string
  created: string
  expiry: string
  last_authenticated: string
  last_remote_addr: string
  user_agent: string
}

export type TrustedDeviceRow = Selectable<TrustedDeviceTable>
