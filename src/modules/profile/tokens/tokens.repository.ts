import type { RawBuilder } from 'kysely'
import { filterFields } from '../../../common/filter-columns.ts'
import { listStatements, type PageRequest, paginate } from '../../../common/pagination.ts'
import { joinedJsonPage } from '../../../common/rendered-json.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import { listCriteria } from '../../../db/list-criteria.ts'
import { defineShaped, runPrepared, stableSlot } from '../../../db/prepared.ts'
import { takeRow, updateRow } from '../../../db/rows.ts'
import { tokenJson } from './token-json.ts'

/** Tokens filter (and order) on `created` and `label` (docs/service-facts.md#filterable-fields). */
export const TOKEN_FILTERS = filterFields(
  { timestamp: ['created'], string: ['label'] },
  { column: (field) => `tokens.${field}` },
)

/**
 * A user's personal access tokens that still work (OAuth tokens belong to apps, not this list);
 * the user and the time as values, or as slots of a prepared statement.
 */
const activeTokens = (db: Db, userId: number | RawBuilder<number>, now: string | RawBuilder<string>) =>
  db
    .selectFrom('tokens')
    .where('tokens.user_id', '=', userId)
    .where('tokens.authorized_app_id', 'is', null)
    .where((eb) => eb.or([eb('tokens.expiry', 'is', null), eb('tokens.expiry', '>', now)]))

/**
 * The token list's statements, one set per X-Filter as sent; the user and the time are slots, so
 * one statement serves every user. Each token is its wire JSON (see token-json.ts).
 */
const tokenListStatements = defineShaped(
  'token list json',
  (db, shape: { filter: string | null }, dialect) => {
    const { where, order } = listCriteria({
      filter: shape.filter ?? undefined,
      spec: TOKEN_FILTERS,
      dialect,
      order: { unique: 'tokens.id' },
    })
    let query = activeTokens(db as Db, stableSlot(dialect, 'user'), stableSlot(dialect, 'now'))
    if (where) query = query.where(where)
    const { count, page } = listStatements(query.select(tokenJson(dialect).as('json')), order, dialect)
    return { count, page: joinedJsonPage(page, dialect) }
  },
)

/**
 * A page of the user's working tokens as wire JSON, the items joined by commas, filtered and
 * ordered by X-Filter; the id breaks ties.
 */
export async function listTokenJson(
  db: Db,
  userId: number,
  now: string,
  filter: string | undefined,
  page: PageRequest,
): Promise<PageResult<string>> {
  const list = tokenListStatements(db, { filter: filter ?? null })
  const rows = await paginate(db, list, { user: userId, now }, page)
  return { ...rows, data: rows.data.map((r) => r.json) }
}

/** Prepared once: it runs with every page rendered for the page cache. */
const nextExpiryStatement = defineShaped('token next expiry', (db, _shape: null, dialect) => ({
  next: activeTokens(db as Db, stableSlot(dialect, 'user'), stableSlot(dialect, 'now'))
    .select((eb) => eb.fn.min('tokens.expiry').as('next'))
    .compile(),
}))

/**
 * The first time after `now` at which one of the user's working tokens expires (null: none
 * will), when the list of those tokens changes without any write.
 */
export async function nextTokenExpiry(db: Db, userId: number, now: string): Promise<string | null> {
  const { rows } = await runPrepared(db, nextExpiryStatement(db, null).next, { user: userId, now })
  return (rows[0]?.next as string | null | undefined) ?? null
}

/** Prepared once: a token by id is the read behind every GET, PUT and DELETE of one. */
const findTokenStatement = defineShaped('working token of user', (db, _shape: null, dialect) => ({
  find: activeTokens(db as Db, stableSlot(dialect, 'user'), stableSlot(dialect, 'now'))
    .selectAll('tokens')
    .where('tokens.id', '=', stableSlot<number>(dialect, 'id'))
    .compile(),
}))

/** One of the user's working tokens by id; undefined for another user's, an app's or an expired one. */
export async function findToken(db: Db, userId: number, id: number, now: string) {
  const { rows } = await runPrepared(db, findTokenStatement(db, null).find, { user: userId, now, id })
  return rows[0]
}

export const updateTokenLabel = (db: Db, id: number, label: string) =>
  updateRow(db, 'tokens', { id }, { label })

/** True when this call removed it (a concurrent revoke may have first). */
export const deleteToken = (db: Db, id: number) => takeRow(db, 'tokens', { id })
