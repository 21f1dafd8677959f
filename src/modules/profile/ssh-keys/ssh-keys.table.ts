import type { Generated, Selectable } from 'kysely'

/** Public keys on a user's profile, stored exactly as sent. */
export interface SshKeyTable {
  id: Generated<number>
  user_id: number
  label: string
  ssh_key: string
  created: string
}

export type SshKeyRow = Selectable<SshKeyTable>
