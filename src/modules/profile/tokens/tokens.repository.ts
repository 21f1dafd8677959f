import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import type { TokenRow } from '../../auth/tokens.table.ts'

/** Tokens filter (and order) on `created` and `label` (docs/service-facts.md#filterable-fields). */
export const TOKEN_FILTERS: FilterSpec = {
  created: { column: 'tokens.created', type: 'timestamp' },
  label: { column: 'tokens.label', type: 'string' },
}

/** A user's personal access tokens that still work (OAuth tokens belong to apps, not this list). */
function activeTokens(db: Db, userId: number, now: string) {
  return db
    .selectFrom('tokens')
    .selectAll('tokens')
    .where('tokens.user_id', '=', userId)
    .where('tokens.authorized_app_id', 'is', null)
    .where((eb) => eb.or([eb('tokens.expiry', 'is', null), eb('tokens.expiry', '>', now)]))
}

/** The user's working tokens, filtered and ordered by X-Filter; the id breaks ties. */
export async function listTokens(
  db: Db,
  userId: number,
  now: string,
  list: ListQuery,
): Promise<PageResult<TokenRow>> {
  return pageOfFilteredList(
    db,
    activeTokens(db, userId, now),
    { spec: TOKEN_FILTERS, unique: 'tokens.id' },
    list,
  )
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
