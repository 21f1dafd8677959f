import { type RawBuilder, type SqlBool, sql } from 'kysely'
import {
  type OrderTerm,
  type PageRequest,
  type PreparedList,
  paginatePrepared,
} from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf, forUpdate } from '../../db/dialects/dialect.ts'
import { PreparedCache, type PreparedQuery, prepare, runPrepared, stableSlot } from '../../db/prepared.ts'
import { type JsonParts, vpcJson, vpcJsonParts } from './vpc-json.ts'
import type { NewVpcRow, VpcRow } from './vpcs.table.ts'

export async function findAccountVpc(db: Db, accountId: number, id: number): Promise<VpcRow | undefined> {
  return db
    .selectFrom('vpcs')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst()
}

/** The VPC, locked until the transaction ends (PostgreSQL), to serialize changes to its subnets. */
export async function lockAccountVpc(db: Db, accountId: number, id: number): Promise<VpcRow | undefined> {
  return forUpdate(
    db,
    db.selectFrom('vpcs').selectAll().where('id', '=', id).where('account_id', '=', accountId),
  ).executeTakeFirst()
}

const vpcQueries = new PreparedCache<PreparedQuery<{ json: string }>>(2)

/** A VPC of the account as its wire JSON (see vpc-json.ts), in one prepared statement. */
export async function findAccountVpcJson(db: Db, accountId: number, id: number): Promise<string | undefined> {
  const dialect = dialectOf(db)
  const query = vpcQueries.get(dialect, () =>
    prepare(
      db
        .selectFrom('vpcs')
        .select(vpcJson(dialect).as('json'))
        .where('vpcs.id', '=', stableSlot<number>(dialect, 'id'))
        .where('vpcs.account_id', '=', stableSlot<number>(dialect, 'account'))
        .compile(),
    ),
  )
  const { rows } = await runPrepared(db, query, { id, account: accountId })
  return rows[0]?.json
}

const listQueries = new PreparedCache<PreparedList<{ json: string }>>()

/**
 * A page of the account's VPCs as wire JSON, the items joined by commas (see vpc-json.ts).
 * Prepared once per shape (see db/prepared.ts): `shapeKey` must identify everything `compile`
 * puts into the SQL, whose slots are filled from `values` (the account's slot is this function's).
 */
export async function listAccountVpcJson(
  db: Db,
  accountId: number,
  page: PageRequest,
  shapeKey: string,
  values: Record<string, unknown>,
  compile: () => { where: RawBuilder<SqlBool> | undefined; order: OrderTerm[] },
): Promise<PageResult<string>> {
  const dialect = dialectOf(db)
  const list = listQueries.get(`${dialect}\u0000${shapeKey}`, () => {
    const { where, order } = compile()
    let query = db.selectFrom('vpcs').where('vpcs.account_id', '=', stableSlot<number>(dialect, 'account'))
    if (where) query = query.where(where)
    const count = query.select(sql<number>`count(*)`.as('n'))
    let paged = query.select([vpcJson(dialect).as('json'), sql<number>`(${count})`.as('n')])
    for (const term of order) paged = paged.orderBy(sql`${term.expression} ${sql.raw(term.direction)}`)
    paged = paged.limit(stableSlot<number>(dialect, 'limit')).offset(stableSlot<number>(dialect, 'offset'))
    if (dialect === 'postgres') return { count: prepare(count.compile()), page: prepare(paged.compile()) }
    // SQLite hands the page over as one string, a fifth cheaper than a hundred rows. The rows are
    // joined in the subquery's order (its LIMIT keeps its ORDER BY); an empty page is no row.
    const joined = db
      .selectFrom(paged.as('p'))
      .select([sql<string>`group_concat(p.json, ',')`.as('json'), sql<number>`max(p.n)`.as('n')])
      .having(sql<SqlBool>`count(*) > 0`)
    return { count: prepare(count.compile()), page: prepare(joined.compile()) }
  })
  const rows = await paginatePrepared(db, list, { ...values, account: accountId }, page)
  return { ...rows, data: rows.data.map((r) => r.json) }
}

export async function findVpcByLabel(db: Db, accountId: number, label: string): Promise<VpcRow | undefined> {
  return db
    .selectFrom('vpcs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('label', '=', label)
    .executeTakeFirst()
}

export async function countVpcsInRegion(db: Db, accountId: number, region: string): Promise<number> {
  const row = await db
    .selectFrom('vpcs')
    .select(sql<number>`count(*)`.as('n'))
    .where('account_id', '=', accountId)
    .where('region', '=', region)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

export async function insertVpc(db: Db, row: Omit<NewVpcRow, keyof JsonParts>): Promise<VpcRow> {
  const values = { updated: null, ...row }
  return db
    .insertInto('vpcs')
    .values({ ...values, ...vpcJsonParts(values) })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Changes fields of a VPC (and its stored JSON with them). */
export async function updateVpc(
  db: Db,
  current: VpcRow,
  values: { label?: string; description?: string; updated: string },
): Promise<VpcRow> {
  return db
    .updateTable('vpcs')
    .set({ ...values, ...vpcJsonParts({ ...current, ...values }) })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Deletes the VPC; its subnets go with it (foreign-key cascade). */
export async function deleteVpc(db: Db, id: number): Promise<void> {
  await db.deleteFrom('vpcs').where('id', '=', id).execute()
}
