import type { Db } from './connect.ts'
import { findValue, upsertRow } from './rows.ts'

/**
 * Server metadata in the `meta` table. Every key is listed here, so two features cannot end up
 * sharing one by accident.
 */
export type MetaKey =
  /** The user the first start created as the default account's owner. */
  | 'default_user_id'
  /** Fingerprint of the server key this database was first used with. */
  | 'secret_key_fingerprint'
  /** SHA-256 (hex) of the control API's admin key; the key itself is never stored. */
  | 'admin_key_hash'
  /** The virtual clock as JSON (`{ "offsetMs": … }`); no row: real time. */
  | 'clock'
  /** The wire vocabulary (`document` or `linode`) the database was first served with. */
  | 'naming'
  /**
   * SHA-256 (hex) of each CLOUDPLANE_BOOTSTRAP_TOKEN seeded, separated by spaces, the newest last:
   * each is created once, so revoking it lasts across restarts.
   */
  | 'bootstrap_token_hash'
  /** How long each kind of asynchronous work takes, as JSON seconds by kind; no row: instant. */
  | 'work_durations'
  /** When the request journal was last cleared (real ms): older entries still buffered are not shown. */
  | 'journal_cleared_ms'
  /** Journal entries dropped since the last clear because a process's write buffer was full. */
  | 'journal_dropped'

export const getMeta = (db: Db, key: MetaKey) => findValue(db, 'meta', 'value', { key })

export const setMeta = (db: Db, key: MetaKey, value: string) => upsertRow(db, 'meta', { key, value }, ['key'])

/** Stores `value` only if the key has none yet; the first writer wins among racing processes. */
export const insertMetaIfAbsent = (db: Db, key: MetaKey, value: string) =>
  upsertRow(db, 'meta', { key, value }, ['key'], 'keep')
