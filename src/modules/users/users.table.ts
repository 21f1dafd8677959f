import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

export interface UserTable {
  id: Generated<number>
  account_id: number
  username: string
  email: string
  restricted: boolean
  email_notifications: Generated<boolean>
  timezone: Generated<string>
  authentication_type: Generated<string>
  /** JSON array of public keys, or NULL. */
  authorized_keys: string | null
  shell_auth_method: Generated<string>
  ip_whitelist_enabled: Generated<boolean>
  two_factor_auth: Generated<boolean>
  verified_phone_number: string | null
  referral_code: string
  created: string
}

export type UserRow = Selectable<UserTable>
export type NewUserRow = Insertable<UserTable>
export type UserRowUpdate = Updateable<UserTable>
