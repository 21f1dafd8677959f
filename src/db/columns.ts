import type { Generated } from 'kysely'

/**
 * Column sets that many tables share, for their Kysely table interfaces to extend: the columns
 * mean the same in every table that has them.
 */

/** The key the database assigns to a new row. */
export interface SerialKey {
  id: Generated<number>
}

/** A resource an account owns: the database's key and the owning account. */
export interface AccountOwned extends SerialKey {
  account_id: number
}

/** When the row was created and last changed, as wire timestamps (`formatTimestamp`, src/common/time.ts). */
export interface Timestamps {
  created: string
  updated: string
}

/** Tags of a taggable resource, kept as a JSON array of strings. */
export interface Tagged {
  tags: string
}
