import type { ExpressionBuilder } from 'kysely'
import type { Db } from '../../db/connect.ts'
import type { Database } from '../../db/database.ts'
import type { UserRow } from '../users/users.table.ts'
import type { LoginSessionRow, LoginThrottleRow, OAuthCodeRow, OAuthRefreshTokenRow } from './login.tables.ts'

export async function findPasswordHash(db: Db, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_passwords')
    .select('password_hash')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.password_hash
}

export async function savePasswordHash(db: Db, userId: number, hash: string, at: string): Promise<void> {
  await db
    .insertInto('user_passwords')
    .values({ user_id: userId, password_hash: hash, updated: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: hash, updated: at }))
    .execute()
}

// Throttles ------------------------------------------------------------------------------------

export async function findThrottles(db: Db, keys: string[]): Promise<LoginThrottleRow[]> {
  return db.selectFrom('login_throttles').selectAll().where('key', 'in', keys).execute()
}

export async function saveThrottle(db: Db, row: LoginThrottleRow): Promise<void> {
  const { key, ...values } = row
  await db
    .insertInto('login_throttles')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet(values))
    .execute()
}

export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.deleteFrom('login_throttles').where('key', '=', key).execute()
}

// Browser sessions -----------------------------------------------------------------------------

export async function insertSession(db: Db, row: Omit<LoginSessionRow, 'id'>): Promise<void> {
  await db.insertInto('login_sessions').values(row).execute()
}

export async function findSession(db: Db, digest: string, now: string): Promise<LoginSessionRow | undefined> {
  return db
    .selectFrom('login_sessions')
    .selectAll()
    .where('secret_digest', '=', digest)
    .where('expiry', '>', now)
    .executeTakeFirst()
}

export async function deleteSession(db: Db, digest: string): Promise<void> {
  await db.deleteFrom('login_sessions').where('secret_digest', '=', digest).execute()
}

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

export async function insertCode(db: Db, row: OAuthCodeRow): Promise<void> {
  await db.insertInto('oauth_codes').values(row).execute()
}

export async function findCode(db: Db, codeHash: string): Promise<OAuthCodeRow | undefined> {
  return db
    .selectFrom('oauth_codes')
    .selectAll('oauth_codes')
    .where('code_hash', '=', codeHash)
    .where(appStillAuthorized('oauth_codes'))
    .executeTakeFirst()
}

/** True for the one caller that removed it: a code is exchanged at most once, even in a race. */
export async function consumeCode(db: Db, codeHash: string): Promise<boolean> {
  const result = await db.deleteFrom('oauth_codes').where('code_hash', '=', codeHash).executeTakeFirst()
  return Number(result.numDeletedRows) === 1
}

export async function insertRefreshToken(db: Db, row: Omit<OAuthRefreshTokenRow, 'id'>): Promise<void> {
  await db.insertInto('oauth_refresh_tokens').values(row).execute()
}

export async function findRefreshToken(db: Db, tokenHash: string): Promise<OAuthRefreshTokenRow | undefined> {
  return db
    .selectFrom('oauth_refresh_tokens')
    .selectAll('oauth_refresh_tokens')
    .where('token_hash', '=', tokenHash)
    .where(appStillAuthorized('oauth_refresh_tokens'))
    .executeTakeFirst()
}

export async function consumeRefreshToken(db: Db, tokenHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('oauth_refresh_tokens')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst()
  return Number(result.numDeletedRows) === 1
}

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

export async function deleteAccessToken(db: Db, id: number): Promise<void> {
  await db.deleteFrom('tokens').where('id', '=', id).execute()
}

// Users, as the login pages see them --------------------------------------------------------------

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst()
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}
