import type { Selectable } from 'kysely'

/**
 * Two-factor state of a user: a secret waiting for confirmation (with its expiry), the confirmed
 * secret, the last TOTP time step accepted (so a code works once), and the scratch code's digest.
 * `users.two_factor_auth` remains the flag the profile shows.
 */
export interface UserTfaTable {
  user_id: number
  pending_secret_sealed: string | null
  pending_expiry: string | null
  secret_sealed: string | null
  last_time_step: number | null
  scratch_digest: string | null
}

export type UserTfaRow = Selectable<UserTfaTable>
