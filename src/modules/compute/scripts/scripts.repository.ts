import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { filterFields } from '../../../common/filter-columns.ts'
import { type PageRequest, paginateQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { listCriteria } from '../../../db/list-criteria.ts'
import { deleteRows, findRow, insertRow, updateRow } from '../../../db/rows.ts'
import { grantedEntities } from '../../grants/grant-filter.ts'
import { takeMine } from './script-mine-filter.ts'
import type { NewScriptRow, ScriptRow, ScriptRowUpdate } from './scripts.table.ts'

/** Filterable script fields. */
const SCRIPT_FILTERS = filterFields({
  integer: ['id', 'deployments_total', 'deployments_active'],
  string: ['label', 'username', 'description', 'rev_note'],
  boolean: ['is_public'],
  timestamp: ['created', 'updated'],
})

/** A script the account can see: a public one, or one of its own. */
export async function findVisibleScript(
  db: Db,
  accountId: number | null,
  id: number,
): Promise<ScriptRow | undefined> {
  return db
    .selectFrom('scripts')
    .selectAll()
    .where('id', '=', id)
    .where((eb) =>
      accountId === null
        ? eb('is_public', '=', true)
        : eb.or([eb('is_public', '=', true), eb('account_id', '=', accountId)]),
    )
    .executeTakeFirst()
}

/** One of the account's own scripts, held until the transaction ends (PostgreSQL), for a change. */
export const lockAccountScript = (db: Db, accountId: number, id: number) =>
  findRow(db, 'scripts', { id, account_id: accountId }, { lock: true })

export interface ScriptListScope {
  /** The caller's account, whose own scripts are listed with the public ones; null: public only. */
  accountId: number | null
  /** A restricted user, who sees only the account's scripts granted to them; null: all of them. */
  restrictedUserId: number | null
}

export async function listScripts(
  db: Db,
  scope: ScriptListScope,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<ScriptRow>> {
  let own: RawBuilder<SqlBool> | undefined
  if (scope.accountId !== null) {
    own = sql<SqlBool>`account_id = ${scope.accountId}`
    if (scope.restrictedUserId !== null) {
      own = sql<SqlBool>`(${own} and ${grantedEntities('script', 'id', scope.restrictedUserId)})`
    }
  }
  let visible = own ? sql<SqlBool>`(is_public = ${true} or ${own})` : sql<SqlBool>`is_public = ${true}`
  const taken = takeMine(filter)
  if (taken.mine !== undefined) {
    const account = scope.accountId ?? 0
    const mine = taken.mine
      ? sql<SqlBool>`account_id = ${account}`
      : sql<SqlBool>`(account_id is null or account_id <> ${account})`
    visible = sql<SqlBool>`(${visible} and ${mine})`
  }
  const criteria = listCriteria({
    filter: taken.filter,
    spec: SCRIPT_FILTERS,
    dialect: dialectOf(db),
    restriction: visible,
    order: { unique: 'id' },
  })
  const query = db
    .selectFrom('scripts')
    .selectAll()
    .where(criteria.where ?? visible)
  return paginateQuery(db, query, criteria.order, page)
}

export const insertScript = (db: Db, row: NewScriptRow) => insertRow(db, 'scripts', row)

export const updateScript = (db: Db, id: number, values: ScriptRowUpdate) =>
  updateRow(db, 'scripts', { id }, values)

export const deleteScript = (db: Db, id: number) => deleteRows(db, 'scripts', { id })

/** Counts a deployment made (+1) or an instance deployed with it deleted (-1). */
export async function countDeployment(db: Db, id: number, change: 1 | -1): Promise<void> {
  await db
    .updateTable('scripts')
    .set({
      ...(change === 1 && { deployments_total: sql`deployments_total + 1` }),
      deployments_active: sql`deployments_active + ${change}`,
    })
    .where('id', '=', id)
    .where((eb) => (change === 1 ? eb.lit(true) : eb('deployments_active', '>', 0)))
    .execute()
}
