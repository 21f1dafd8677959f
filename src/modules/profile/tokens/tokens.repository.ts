import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { type OrderTerm, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import type { TokenRow } from '../../auth/tokens.table.ts'

/** A user's personal access tokens that still work (OAuth tokens belong to apps, not this list). */
function activeTokens(db: Db, userId: number, now: string) {
  return db
    .selectFrom('tokens')
    .selectAll('tokens')
    .where('tokens.user_id', '=', userId)
    .where('tokens.authorized_app_id', 'is', null)
    .where((eb) => eb.or([eb('tokens.expiry', 'is', null), eb('tokens.expiry', '>', now)]))
}

export async function listTokens(
  db: Db,
  userId: number,
  now: string,
  page: PageRequest,
  where: RawBuilder<SqlBool> | undefined,
  order: OrderTerm[],
): Promise<PageResult<TokenRow>> {
  let query = activeTokens(db, userId, now)
  if (where) query = query.where(where)
  return paginate(query, page, order)
}

export async function findToken(
  db: Db,
  userId: number,
  id: number,
  now: string,
): Promise<TokenRow | undefined> {
  return activeTokens(db, userId, now).where('tokens.id', '=', id).executeTakeFirst()
}

export async function updateTokenLabel(db: Db, id: number, label: string): Promise<TokenRow> {
  return db.updateTable('tokens').set({ label }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function deleteToken(db: Db, id: number): Promise<void> {
  await db.deleteFrom('tokens').where('id', '=', id).execute()
}

export const orderById = (direction: 'asc' | 'desc'): OrderTerm => ({
  expression: sql.ref('tokens.id'),
  direction,
})
