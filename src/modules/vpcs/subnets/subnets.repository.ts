import type { RawBuilder, SqlBool } from 'kysely'
import { sql } from 'kysely'
import { type OrderTerm, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf, forUpdate } from '../../../db/dialects/dialect.ts'
import {
  PreparedCache,
  type PreparedQuery,
  prepare,
  runPrepared,
  slot,
  stableSlot,
} from '../../../db/prepared.ts'
import { subnetJsonParts } from '../vpc-json.ts'
import type { VpcRow } from '../vpcs.table.ts'
import type { NewSubnetRow, SubnetRow } from './subnets.table.ts'

/*
 * The subnet writes (create, delete) run their statements prepared (see db/prepared.ts): they are
 * the hot writes of the area, and building and compiling the queries cost more than running them.
 */

type VpcRef = Pick<VpcRow, 'id' | 'label'>
export type SubnetRange = Pick<SubnetRow, 'label' | 'ipv4'>

const vpcWithRangesQuery = new PreparedCache<
  PreparedQuery<{ id: number; label: string; s_label: string | null; s_ipv4: string | null }>
>(2)
const lockVpcQuery = new PreparedCache<PreparedQuery<VpcRef>>(2)
const rangesQuery = new PreparedCache<PreparedQuery<SubnetRange>>(2)

/**
 * The account's VPC, locked until the transaction ends so that subnet creates are serialized,
 * with the label and range of each of its subnets (in id order). PostgreSQL reads the subnets in
 * a second statement, after the lock is held: one statement would read them as they were before
 * it waited. SQLite's write transaction is exclusive already, so one statement does.
 */
export async function lockVpcWithRanges(
  db: Db,
  accountId: number,
  vpcId: number,
): Promise<{ vpc: VpcRef; subnets: SubnetRange[] } | undefined> {
  const dialect = dialectOf(db)
  const values = { vpc: vpcId, account: accountId }
  if (dialect === 'postgres') {
    const lock = lockVpcQuery.get(dialect, () =>
      prepare(
        db
          .selectFrom('vpcs')
          .select(['id', 'label'])
          .where('id', '=', slot<number>('vpc'))
          .where('account_id', '=', slot<number>('account'))
          .forUpdate()
          .compile(),
      ),
    )
    const vpc = (await runPrepared(db, lock, values)).rows[0]
    if (vpc === undefined) return undefined
    const ranges = rangesQuery.get(dialect, () =>
      prepare(
        db
          .selectFrom('subnets')
          .select(['label', 'ipv4'])
          .where('vpc_id', '=', slot<number>('vpc'))
          .orderBy('id')
          .compile(),
      ),
    )
    return { vpc, subnets: (await runPrepared(db, ranges, values)).rows }
  }
  const query = vpcWithRangesQuery.get(dialect, () =>
    prepare(
      db
        .selectFrom('vpcs as v')
        .leftJoin('subnets as s', 's.vpc_id', 'v.id')
        .select(['v.id', 'v.label', 's.label as s_label', 's.ipv4 as s_ipv4'])
        .where('v.id', '=', stableSlot<number>(dialect, 'vpc'))
        .where('v.account_id', '=', stableSlot<number>(dialect, 'account'))
        .orderBy('s.id')
        .compile(),
    ),
  )
  const { rows } = await runPrepared(db, query, values)
  const first = rows[0]
  if (first === undefined) return undefined
  const subnets: SubnetRange[] = []
  for (const row of rows) {
    if (row.s_label !== null && row.s_ipv4 !== null) subnets.push({ label: row.s_label, ipv4: row.s_ipv4 })
  }
  return { vpc: { id: first.id, label: first.label }, subnets }
}

const insertQuery = new PreparedCache<PreparedQuery<SubnetRow>>(2)

/** A new subnet's fields; the stored JSON is derived from them. */
export type NewSubnet = Omit<NewSubnetRow, 'json_head' | 'json_tail'>

export async function insertSubnet(db: Db, row: NewSubnet): Promise<SubnetRow> {
  const query = insertQuery.get(dialectOf(db), () =>
    prepare(
      db
        .insertInto('subnets')
        .values({
          vpc_id: slot<number>('vpc_id'),
          label: slot<string>('label'),
          ipv4: slot<string>('ipv4'),
          created: slot<string>('created'),
          updated: slot<string | null>('updated'),
          json_head: slot<string>('json_head'),
          json_tail: slot<string>('json_tail'),
        })
        .returningAll()
        .compile(),
    ),
  )
  const values = { updated: null, ...row }
  const { rows } = await runPrepared(db, query, { ...values, ...subnetJsonParts(values) })
  return rows[0] as SubnetRow
}

const lockSubnetQuery = new PreparedCache<PreparedQuery<SubnetRow & { vpc_label: string }>>(2)

/**
 * A subnet of the account's VPC, with the VPC's label; the subnet is locked until the
 * transaction ends (PostgreSQL), so no interface can join it meanwhile.
 */
export async function lockSubnetOfAccountVpc(
  db: Db,
  accountId: number,
  vpcId: number,
  subnetId: number,
): Promise<{ vpc: VpcRef; subnet: SubnetRow } | undefined> {
  const dialect = dialectOf(db)
  const query = lockSubnetQuery.get(dialect, () => {
    const query = db
      .selectFrom('subnets as s')
      .innerJoin('vpcs as v', 'v.id', 's.vpc_id')
      .selectAll('s')
      .select('v.label as vpc_label')
      .where('s.id', '=', stableSlot<number>(dialect, 'subnet'))
      .where('s.vpc_id', '=', stableSlot<number>(dialect, 'vpc'))
      .where('v.account_id', '=', stableSlot<number>(dialect, 'account'))
    return prepare((dialect === 'postgres' ? query.forUpdate('s') : query).compile())
  })
  const { rows } = await runPrepared(db, query, { subnet: subnetId, vpc: vpcId, account: accountId })
  const found = rows[0]
  if (found === undefined) return undefined
  const { vpc_label, ...subnet } = found
  return { vpc: { id: subnet.vpc_id, label: vpc_label }, subnet }
}

/** The subnets of a page of VPCs, in one query (a plain template: it is on the list's hot path). */
export async function listSubnetsOfVpcs(db: Db, vpcIds: readonly number[]): Promise<SubnetRow[]> {
  if (vpcIds.length === 0) return []
  const { rows } = await sql<SubnetRow>`select id, vpc_id, label, ipv4, created, updated from subnets
    where vpc_id in (${sql.join(vpcIds)}) order by vpc_id, id`.execute(db)
  return rows
}

export async function pageVpcSubnets(
  db: Db,
  vpcId: number,
  page: PageRequest,
  where: RawBuilder<SqlBool> | undefined,
  order: OrderTerm[],
): Promise<PageResult<SubnetRow>> {
  let query = db.selectFrom('subnets').selectAll().where('vpc_id', '=', vpcId)
  if (where) query = query.where(where)
  return paginate(query, page, order)
}

export async function findVpcSubnet(db: Db, vpcId: number, id: number): Promise<SubnetRow | undefined> {
  return db
    .selectFrom('subnets')
    .selectAll()
    .where('id', '=', id)
    .where('vpc_id', '=', vpcId)
    .executeTakeFirst()
}

export async function lockSubnetsOfVpc(db: Db, vpcId: number): Promise<SubnetRow[]> {
  return forUpdate(
    db,
    db.selectFrom('subnets').selectAll().where('vpc_id', '=', vpcId).orderBy('id'),
  ).execute()
}

/** A subnet of the account by id alone (config interfaces name only the subnet), locked. */
export async function lockAccountSubnet(
  db: Db,
  accountId: number,
  id: number,
): Promise<(SubnetRow & { region: string; vpc_label: string }) | undefined> {
  // Only the account's own subnet is locked: another tenant guessing ids must not block anything.
  const subnet = await forUpdate(
    db,
    db
      .selectFrom('subnets')
      .selectAll()
      .where('id', '=', id)
      .where('vpc_id', 'in', (eb) => eb.selectFrom('vpcs').select('id').where('account_id', '=', accountId)),
  ).executeTakeFirst()
  if (subnet === undefined) return undefined
  const vpc = await db
    .selectFrom('vpcs')
    .select(['region', 'label'])
    .where('id', '=', subnet.vpc_id)
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return vpc === undefined ? undefined : { ...subnet, region: vpc.region, vpc_label: vpc.label }
}

export async function insertSubnets(db: Db, rows: NewSubnet[]): Promise<SubnetRow[]> {
  if (rows.length === 0) return []
  const values = rows.map((row) => {
    const complete = { updated: null, ...row }
    return { ...complete, ...subnetJsonParts(complete) }
  })
  return db.insertInto('subnets').values(values).returningAll().execute()
}

/** Changes fields of a subnet (and its stored JSON with them). */
export async function updateSubnet(
  db: Db,
  current: SubnetRow,
  values: { label?: string; updated: string },
): Promise<SubnetRow> {
  return db
    .updateTable('subnets')
    .set({ ...values, ...subnetJsonParts({ ...current, ...values }) })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

const deleteQuery = new PreparedCache<PreparedQuery<never>>(2)

/**
 * Deletes the subnet unless a config interface uses it; false when it is in use. The caller holds
 * the subnet's lock, so the check and the delete see the same interfaces.
 */
export async function deleteSubnetIfUnused(db: Db, id: number): Promise<boolean> {
  const dialect = dialectOf(db)
  const query = deleteQuery.get(dialect, () =>
    prepare(
      db
        .deleteFrom('subnets')
        .where('id', '=', stableSlot<number>(dialect, 'id'))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('compute_interfaces')
                .select(sql.lit(1).as('one'))
                .where('subnet_id', '=', stableSlot<number>(dialect, 'id')),
            ),
          ),
        )
        .compile(),
    ),
  )
  const result = await runPrepared(db, query, { id })
  return Number(result.numAffectedRows ?? 0) > 0
}
