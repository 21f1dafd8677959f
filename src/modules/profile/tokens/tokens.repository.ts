import { filterFields } from '../../../common/filter-columns.ts'
import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { Db } from '../../../db/connect.ts'
import { deleteRows, updateRow } from '../../../db/rows.ts'

/** Tokens filter (and order) on `created` and `label` (docs/service-facts.md#filterable-fields). */
export const TOKEN_FILTERS = filterFields(
  { timestamp: ['created'], string: ['label'] },
  { column: (field) => `tokens.${field}` },
)

/** A user's personal access tokens that still work (OAuth tokens belong to apps, not this list). */
const activeTokens = (db: Db, userId: number, now: string) =>
  db
    .selectFrom('tokens')
    .selectAll('tokens')
    .where('tokens.user_id', '=', userId)
    .where('tokens.authorized_app_id', 'is', null)
    .where((eb) => eb.or([eb('tokens.expiry', 'is', null), eb('tokens.expiry', '>', now)]))

/** The user's working tokens, filtered and ordered by X-Filter; the id breaks ties. */
export const listTokens = (db: Db, userId: number, now: string, list: ListQuery) =>
  pageOfFilteredList(db, activeTokens(db, userId, now), { spec: TOKEN_FILTERS, unique: 'tokens.id' }, list)

export const findToken = (db: Db, userId: number, id: number, now: string) =>
  activeTokens(db, userId, now).where('tokens.id', '=', id).executeTakeFirst()

export const updateTokenLabel = (db: Db, id: number, label: string) =>
  updateRow(db, 'tokens', { id }, { label })

export const deleteToken = (db: Db, id: number) => deleteRows(db, 'tokens', { id })
