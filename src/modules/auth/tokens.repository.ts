import type { Db } from '../../db/connect.ts'
import { defineShaped, runPrepared, slot } from '../../db/prepared.ts'
import { findValue, insertRow, upsertRow } from '../../db/rows.ts'
import type { UserRow } from '../users/users.table.ts'
import type { TokenRow } from './tokens.table.ts'

export interface TokenWithUser {
  token: Pick<TokenRow, 'id' | 'scopes' | 'expiry' | 'token_hash' | 'authorized_app_id'>
  clientId: string | null
  appExpiry: string | null
  accountUuid: string
  user: UserRow
}

/** Authentication runs on every request and its SQL never changes: prepared once per database kind. */
const lookupStatement = defineShaped('token with user', (db, _shape: Record<string, never>) => ({
  lookup: (db as Db)
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .leftJoin('authorized_apps', 'authorized_apps.id', 'tokens.authorized_app_id')
    .selectAll('users')
    .select([
      'tokens.id as token_id',
      'tokens.scopes as token_scopes',
      'tokens.expiry as token_expiry',
      'tokens.token_hash as token_hash',
      'tokens.authorized_app_id as token_app_id',
      'authorized_apps.client_id as app_client_id',
      'authorized_apps.expiry as app_expiry',
      'accounts.uuid as account_uuid',
    ])
    .where('tokens.token_hash', '=', slot<string>('hash'))
    .compile(),
}))

/** The token, its user and account in one query: the whole of authentication's database work. */
export async function findTokenWithUser(db: Db, tokenHash: string): Promise<TokenWithUser | undefined> {
  const { rows } = await runPrepared(db, lookupStatement(db, {}).lookup, { hash: tokenHash })
  const row = rows[0]
  if (row === undefined) return undefined
  const {
    token_id,
    token_scopes,
    token_expiry,
    token_hash,
    token_app_id,
    app_client_id,
    app_expiry,
    account_uuid,
    ...user
  } = row
  return {
    token: {
      id: token_id,
      scopes: token_scopes,
      expiry: token_expiry,
      token_hash,
      authorized_app_id: token_app_id,
    },
    clientId: app_client_id,
    appExpiry: app_expiry,
    accountUuid: account_uuid,
    user,
  }
}

export interface NewToken {
  userId: number
  authorizedAppId?: number | null
  label: string
  scopes: string
  tokenHash: string
  tokenPrefix: string
  created: string
  expiry: string | null
}

const tokenValues = (token: NewToken) => ({
  user_id: token.userId,
  authorized_app_id: token.authorizedAppId ?? null,
  label: token.label,
  scopes: token.scopes,
  token_hash: token.tokenHash,
  token_prefix: token.tokenPrefix,
  created: token.created,
  expiry: token.expiry,
})

export const insertToken = (db: Db, token: NewToken) => insertRow(db, 'tokens', tokenValues(token))

/** Inserts a token unless one with the same hash exists (several processes seeding one bootstrap token). */
export const insertTokenIfAbsent = (db: Db, token: NewToken) =>
  upsertRow(db, 'tokens', tokenValues(token), ['token_hash'], 'keep')

export const findTokenIdByHash = (db: Db, tokenHash: string) =>
  findValue(db, 'tokens', 'id', { token_hash: tokenHash })
