import { type SqlBool, sql } from 'kysely'
import { filterFields } from '../../common/filter-columns.ts'
import type { PageRequest } from '../../common/pagination.ts'
import { orderSql, paginate } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import { CREDENTIALS_COUNTER, counterColumn } from '../../db/change-counters.ts'
import type { Db } from '../../db/connect.ts'
import { listCriteria } from '../../db/list-criteria.ts'
import { defineShaped, runPrepared, stableSlot } from '../../db/prepared.ts'
import { countRows, deleteRows, findRow, insertRow, updateRow } from '../../db/rows.ts'
import { grantedEntities } from '../grants/grant-filter.ts'
import { type JsonParts, vpcJson, vpcJsonParts } from './vpc-json.ts'
import type { NewVpcRow, VpcRow } from './vpcs.table.ts'

/** The account's VPC; `lock` holds it until the transaction ends (PostgreSQL). */
const accountVpc = (db: Db, accountId: number, id: number, lock: boolean) =>
  findRow(db, 'vpcs', { id, account_id: accountId }, { lock })

/** Filterable VPC fields at 4.174.0 (docs/service-facts.md#filterable-fields). */
export const VPC_FILTERS = filterFields(
  { integer: ['id'], string: ['label', 'region'], timestamp: ['created', 'updated'] },
  { column: (field) => `vpcs.${field}`, nullable: ['updated'] },
)

export const findAccountVpc = (db: Db, accountId: number, id: number) => accountVpc(db, accountId, id, false)

/** The VPC, locked until the transaction ends (PostgreSQL), to serialize changes to its subnets. */
export const lockAccountVpc = (db: Db, accountId: number, id: number) => accountVpc(db, accountId, id, true)

const vpcJsonStatement = defineShaped('vpc json', (db, shape: { laterFields: boolean }, dialect) => {
  const find = db
    .selectFrom('vpcs')
    .select(vpcJson(dialect, shape.laterFields).as('json'))
    .where('vpcs.id', '=', stableSlot<number>(dialect, 'id'))
    .where('vpcs.account_id', '=', stableSlot<number>(dialect, 'account'))
  return {
    find: find.compile(),
    // One row whether or not the VPC is there, so a miss reports the stamp too.
    stamped: db.selectNoFrom([find.as('json'), counterColumn(CREDENTIALS_COUNTER).as('stamp')]).compile(),
  }
})

/** How a VPC's JSON is rendered and read. */
export interface VpcJsonOptions {
  /** The fields of later versions (vpcJson). */
  laterFields: boolean
  /** Also the credentials counter as the statement saw it (confirmed-read.ts). */
  stamped?: boolean
}

/** A VPC of the account as its wire JSON (see vpc-json.ts), in one prepared statement. */
export async function findAccountVpcJson(
  db: Db,
  accountId: number,
  id: number,
  { laterFields, stamped = false }: VpcJsonOptions,
): Promise<{ json: string | undefined; stamp: number | undefined }> {
  const statements = vpcJsonStatement(db, { laterFields })
  const values = { id, account: accountId }
  if (!stamped)
    return { json: (await runPrepared(db, statements.find, values)).rows[0]?.json, stamp: undefined }
  const [row] = (await runPrepared(db, statements.stamped, values)).rows
  return { json: row?.json ?? undefined, stamp: row?.stamp ?? undefined }
}

/** Which VPCs a list shows: an account's, and of those only the granted ones for a restricted user. */
export interface VpcListScope {
  accountId: number
  /** The restricted user whose grants keep a VPC in the list; null: every VPC of the account. */
  restrictedUserId: number | null
}

/**
 * The VPC list's statements, one set per shape: the X-Filter as sent and whether grants restrict
 * the list. The account and the restricted user are slots, so one statement serves every account.
 */
export const vpcListStatements = defineShaped(
  'vpc list json',
  (
    db,
    shape: { filter: string | null; restricted: boolean; stamped: boolean; laterFields: boolean },
    dialect,
  ) => {
    const { where, order } = listCriteria({
      filter: shape.filter ?? undefined,
      spec: VPC_FILTERS,
      dialect,
      restriction: shape.restricted
        ? grantedEntities('vpc', 'vpcs.id', stableSlot<number>(dialect, 'user'))
        : undefined,
      order: { unique: 'vpcs.id' },
    })
    let query = db.selectFrom('vpcs').where('vpcs.account_id', '=', stableSlot<number>(dialect, 'account'))
    if (where) query = query.where(where)
    const count = query.select(sql<number>`count(*)`.as('n'))
    let paged = query.select([
      vpcJson(dialect, shape.laterFields).as('json'),
      sql<number>`(${count})`.as('n'),
    ])
    // The credentials counter beside each row, for a caller to confirm (confirmed-read.ts).
    if (shape.stamped) paged = paged.select(counterColumn(CREDENTIALS_COUNTER).as('stamp'))
    for (const term of order) paged = paged.orderBy(orderSql(term))
    paged = paged.limit(stableSlot<number>(dialect, 'limit')).offset(stableSlot<number>(dialect, 'offset'))
    // The page is handed over as one string, a fifth cheaper than a hundred rows on SQLite and
    // a third less of the driver's work on PostgreSQL; an empty page is no row.
    if (dialect === 'postgres') {
      // PostgreSQL promises no order to an aggregate over an ordered subquery: each row carries
      // the values it is ordered by, and the join orders by them again (a page's rows, in memory;
      // numbering the rows with a window instead costs the server more).
      let keyed = paged
      for (const [i, term] of order.entries()) keyed = keyed.select(term.expression.as(`k${i}`))
      const terms = sql.join(order.map((term, i) => orderSql({ ...term, expression: sql.ref(`p.k${i}`) })))
      const joined = db
        .selectFrom(keyed.as('p'))
        .select([
          sql<string>`string_agg(p.json, ',' order by ${terms})`.as('json'),
          sql<number>`max(p.n)`.as('n'),
          ...(shape.stamped ? [sql<number>`max(p.stamp)`.as('stamp')] : []),
        ])
        .having(sql<SqlBool>`count(*) > 0`)
      return { count: count.compile(), page: joined.compile() }
    }
    // SQLite joins the rows in the subquery's order (its LIMIT keeps its ORDER BY).
    const joined = db
      .selectFrom(paged.as('p'))
      .select([sql<string>`group_concat(p.json, ',')`.as('json'), sql<number>`max(p.n)`.as('n')])
      .having(sql<SqlBool>`count(*) > 0`)
    return { count: count.compile(), page: joined.compile() }
  },
)

/**
 * A page of the VPCs in scope as wire JSON, the items joined by commas (see vpc-json.ts); with
 * `stamped` (PostgreSQL), the stamp is the page statement's (none for an empty page).
 */
export async function listVpcJson(
  db: Db,
  scope: VpcListScope,
  filter: string | undefined,
  page: PageRequest,
  { laterFields, stamped = false }: VpcJsonOptions,
): Promise<PageResult<string> & { stamp: number | undefined }> {
  const restricted = scope.restrictedUserId !== null
  const list = vpcListStatements(db, { filter: filter ?? null, restricted, stamped, laterFields })
  const rows = await paginate(db, list, { account: scope.accountId, user: scope.restrictedUserId }, page)
  const stamp = (rows.data[0] as { stamp?: number | null } | undefined)?.stamp ?? undefined
  return { ...rows, data: rows.data.map((r) => r.json), stamp }
}

export const findVpcByLabel = (db: Db, accountId: number, label: string) =>
  findRow(db, 'vpcs', { account_id: accountId, label })

export const countVpcsInRegion = (db: Db, accountId: number, region: string) =>
  countRows(db, 'vpcs', { account_id: accountId, region })

export function insertVpc(db: Db, row: Omit<NewVpcRow, keyof JsonParts>): Promise<VpcRow> {
  const values = { updated: null, ...row }
  return insertRow(db, 'vpcs', { ...values, ...vpcJsonParts(values) })
}

/** Changes fields of a VPC (and its stored JSON with them). */
export const updateVpc = (
  db: Db,
  current: VpcRow,
  values: { label?: string; description?: string; updated: string },
) => updateRow(db, 'vpcs', { id: current.id }, { ...values, ...vpcJsonParts({ ...current, ...values }) })

/** Deletes the VPC; its subnets go with it (foreign-key cascade). */
export const deleteVpc = (db: Db, id: number) => deleteRows(db, 'vpcs', { id })
