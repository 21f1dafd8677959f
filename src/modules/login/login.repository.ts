import type { ExpressionBuilder } from 'kysely'
import type { Db } from '../../db/connect.ts'
import type { Database } from '../../db/database.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import { deleteRows, findRow, findValue, insertRows, rowsOf, takeRow, upsertRow } from '../../db/rows.ts'
import type { LoginSessionRow, LoginThrottleRow, OAuthCodeRow, OAuthRefreshTokenRow } from './login.tables.ts'

export const findPasswordHash = (db: Db, userId: number) =>
  findValue(db, 'user_passwords', 'password_hash', { user_id: userId })

export const savePasswordHash = (db: Db, userId: number, hash: string, at: string) =>
  upsertRow(db, 'user_passwords', { user_id: userId, password_hash: hash, updated: at }, ['user_id'])

// Throttles ------------------------------------------------------------------------------------

/**
 * The throttles of these keys, created where missing (no failures, a window from `now`), held until
 * the transaction ends: the attempts of one name or address are counted one after another.
 */
export async function lockThrottles(db: Db, keys: string[], now: string): Promise<LoginThrottleRow[]> {
  await db
    .insertInto('login_throttles')
    .values(keys.map((key) => ({ key, failures: 0, window_start: now, locked_until: null })))
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute()
  const held = db.selectFrom('login_throttles').selectAll().where('key', 'in', keys).orderBy('key')
  return forUpdate(db, held).execute()
}

export const saveThrottle = (db: Db, row: LoginThrottleRow) => upsertRow(db, 'login_throttles', row, ['key'])

export const clearThrottle = (db: Db, key: string) => deleteRows(db, 'login_throttles', { key })

// Browser sessions -----------------------------------------------------------------------------

export const insertSession = (db: Db, row: Omit<LoginSessionRow, 'id'>) =>
  insertRows(db, 'login_sessions', row)

export const findSession = (db: Db, digest: string, now: string) =>
  rowsOf(db, 'login_sessions', { secret_digest: digest }).where('expiry', '>', now).executeTakeFirst()

export const deleteSession = (db: Db, digest: string) =>
  deleteRows(db, 'login_sessions', { secret_digest: digest })

export async function deleteExpiredSessions(db: Db, now: string): Promise<void> {
  await db.deleteFrom('login_sessions').where('expiry', '<=', now).execute()
}

// Authorization codes and refresh tokens -------------------------------------------------------

/** A revoked app takes its codes and refresh tokens with it, whatever the foreign keys do. */
const appStillAuthorized =
  (table: 'oauth_codes' | 'oauth_refresh_tokens') =>
  ({ exists, selectFrom }: ExpressionBuilder<Database, typeof table>) =>
    exists(
      selectFrom('authorized_apps')
        .select('authorized_apps.id')
        .whereRef('authorized_apps.id', '=', `${table}.authorized_app_id`),
    )

export const insertCode = (db: Db, row: OAuthCodeRow) => insertRows(db, 'oauth_codes', row)

export const findCode = (db: Db, codeHash: string) =>
  rowsOf(db, 'oauth_codes', { code_hash: codeHash })
    .where(appStillAuthorized('oauth_codes'))
    .executeTakeFirst()

/** True for the one caller that removed it: a code is exchanged at most once, even in a race. */
export const consumeCode = (db: Db, codeHash: string) => takeRow(db, 'oauth_codes', { code_hash: codeHash })

export const insertRefreshToken = (db: Db, row: Omit<OAuthRefreshTokenRow, 'id'>) =>
  insertRows(db, 'oauth_refresh_tokens', row)

export const findRefreshToken = (db: Db, tokenHash: string) =>
  rowsOf(db, 'oauth_refresh_tokens', { token_hash: tokenHash })
    .where(appStillAuthorized('oauth_refresh_tokens'))
    .executeTakeFirst()

export const consumeRefreshToken = (db: Db, tokenHash: string) =>
  takeRow(db, 'oauth_refresh_tokens', { token_hash: tokenHash })

/** Access tokens of an app by hash, for revocation (RFC 7009) by the client that holds them. */
export async function findAppAccessToken(
  db: Db,
  tokenHash: string,
): Promise<{ id: number; client_id: string } | undefined> {
  return db
    .selectFrom('tokens')
    .innerJoin('authorized_apps', 'authorized_apps.id', 'tokens.authorized_app_id')
    .select(['tokens.id', 'authorized_apps.client_id'])
    .where('tokens.token_hash', '=', tokenHash)
    .executeTakeFirst()
}

export const deleteAccessToken = (db: Db, id: number) => deleteRows(db, 'tokens', { id })

/** Every access token issued under an authorized app (its refresh tokens are separate). */
export const deleteAppAccessTokens = (db: Db, appId: number) =>
  deleteRows(db, 'tokens', { authorized_app_id: appId })

// Users, as the login pages see them --------------------------------------------------------------

export const findUserByUsername = (db: Db, username: string) => findRow(db, 'users', { username })

export const findUserById = (db: Db, id: number) => findRow(db, 'users', { id })
