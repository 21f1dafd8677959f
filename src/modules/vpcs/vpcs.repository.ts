import { type SqlBool, sql } from 'kysely'
import type { PageRequest } from '../../common/pagination.ts'
import { paginate } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import { listCriteria } from '../../db/list-criteria.ts'
import { defineShaped, runPrepared, stableSlot } from '../../db/prepared.ts'
import { grantedEntities } from '../grants/grant-filter.ts'
import { type JsonParts, vpcJson, vpcJsonParts } from './vpc-json.ts'
import type { NewVpcRow, VpcRow } from './vpcs.table.ts'

/** Filterable VPC fields at 4.174.0 (docs/service-facts.md#filterable-fields). */
export const VPC_FILTERS: FilterSpec = {
  id: { column: 'vpcs.id', type: 'integer' },
  label: { column: 'vpcs.label', type: 'string' },
  region: { column: 'vpcs.region', type: 'string' },
  created: { column: 'vpcs.created', type: 'timestamp' },
  updated: { column: 'vpcs.updated', type: 'timestamp', nullable: true },
}

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

const vpcJsonStatement = defineShaped('vpc json', (db, _shape: Record<string, never>, dialect) => ({
  find: db
    .selectFrom('vpcs')
    .select(vpcJson(dialect).as('json'))
    .where('vpcs.id', '=', stableSlot<number>(dialect, 'id'))
    .where('vpcs.account_id', '=', stableSlot<number>(dialect, 'account'))
    .compile(),
}))

/** A VPC of the account as its wire JSON (see vpc-json.ts), in one prepared statement. */
export async function findAccountVpcJson(db: Db, accountId: number, id: number): Promise<string | undefined> {
  const { rows } = await runPrepared(db, vpcJsonStatement(db, {}).find, { id, account: accountId })
  return rows[0]?.json
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
const vpcListStatements = defineShaped(
  'vpc list json',
  (db, shape: { filter: string | null; restricted: boolean }, dialect) => {
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
    let paged = query.select([vpcJson(dialect).as('json'), sql<number>`(${count})`.as('n')])
    for (const term of order) paged = paged.orderBy(sql`${term.expression} ${sql.raw(term.direction)}`)
    paged = paged.limit(stableSlot<number>(dialect, 'limit')).offset(stableSlot<number>(dialect, 'offset'))
    if (dialect === 'postgres') return { count: count.compile(), page: paged.compile() }
    // SQLite hands the page over as one string, a fifth cheaper than a hundred rows. The rows are
    // joined in the subquery's order (its LIMIT keeps its ORDER BY); an empty page is no row.
    const joined = db
      .selectFrom(paged.as('p'))
      .select([sql<string>`group_concat(p.json, ',')`.as('json'), sql<number>`max(p.n)`.as('n')])
      .having(sql<SqlBool>`count(*) > 0`)
    return { count: count.compile(), page: joined.compile() }
  },
)

/** A page of the VPCs in scope as wire JSON, the items joined by commas (see vpc-json.ts). */
export async function listVpcJson(
  db: Db,
  scope: VpcListScope,
  filter: string | undefined,
  page: PageRequest,
): Promise<PageResult<string>> {
  const restricted = scope.restrictedUserId !== null
  const list = vpcListStatements(db, { filter: filter ?? null, restricted })
  const rows = await paginate(db, list, { account: scope.accountId, user: scope.restrictedUserId }, page)
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
