import { type CompiledQuery, sql } from 'kysely'
import { filterFields } from '../../../common/filter-columns.ts'
import { listStatements, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf, forUpdate } from '../../../db/dialects/dialect.ts'
import { listCriteria } from '../../../db/list-criteria.ts'
import { defineShaped, runPrepared, slot, stableSlot } from '../../../db/prepared.ts'
import { findRow, rowsOf, updateRow } from '../../../db/rows.ts'
import { subnetJsonParts } from '../vpc-json.ts'
import type { VpcRow } from '../vpcs.table.ts'
import { noAttachmentOn } from './subnet-attachments.repository.ts'
import type { NewSubnetRow, SubnetRow } from './subnets.table.ts'

/*
 * The subnet writes (create, delete) run their statements prepared (see db/prepared.ts): they are
 * the hot writes of the area, and building and compiling the queries cost more than running them.
 * Their SQL depends on the dialect alone, so their shape is empty.
 */

/** Filterable subnet fields at 4.174.0 (docs/service-facts.md#filterable-fields). */
export const SUBNET_FILTERS = filterFields(
  { integer: ['id'], string: ['label'], timestamp: ['created', 'updated'] },
  { column: (field) => `subnets.${field}`, nullable: ['updated'] },
)

type NoShape = Record<string, never>
type VpcRef = Pick<VpcRow, 'id' | 'label'>
export type SubnetRange = Pick<SubnetRow, 'label' | 'ipv4'>

/** SQLite: the VPC and its subnets' ranges in one statement (its write transaction is exclusive). */
const vpcWithRangesStatement = defineShaped('vpc with subnet ranges', (db, _shape: NoShape, dialect) => ({
  find: db
    .selectFrom('vpcs as v')
    .leftJoin('subnets as s', 's.vpc_id', 'v.id')
    .select(['v.id', 'v.label', 's.label as s_label', 's.ipv4 as s_ipv4'])
    .where('v.id', '=', stableSlot<number>(dialect, 'vpc'))
    .where('v.account_id', '=', stableSlot<number>(dialect, 'account'))
    .orderBy('s.id')
    .compile(),
}))

/**
 * PostgreSQL: the VPC locked first (with an id for a new subnet, so that the subnet and its event
 * can be inserted in one statement), then its subnets' ranges as they are once the lock is held.
 */
const lockVpcThenRangesStatements = defineShaped('lock vpc, then subnet ranges', (db, _shape: NoShape) => ({
  lock: db
    .selectFrom('vpcs')
    .select(['id', 'label', sql<number>`nextval(pg_get_serial_sequence('subnets', 'id'))`.as('subnet_id')])
    .where('id', '=', slot<number>('vpc'))
    .where('account_id', '=', slot<number>('account'))
    .forUpdate()
    .compile(),
  ranges: db
    .selectFrom('subnets')
    .select(['label', 'ipv4'])
    .where('vpc_id', '=', slot<number>('vpc'))
    .orderBy('id')
    .compile(),
}))

/**
 * The account's VPC, locked until the transaction ends so that subnet creates are serialized,
 * with the label and range of each of its subnets (in id order). PostgreSQL reads the subnets in
 * a second statement, after the lock is held: one statement would read them as they were before
 * it waited. SQLite's write transaction is exclusive already, so one statement does.
 * `subnetId` (PostgreSQL): the id the new subnet takes (an id of a refused create is skipped).
 */
export async function lockVpcWithRanges(
  db: Db,
  accountId: number,
  vpcId: number,
): Promise<{ vpc: VpcRef; subnets: SubnetRange[]; subnetId?: number } | undefined> {
  const values = { vpc: vpcId, account: accountId }
  if (dialectOf(db) === 'postgres') {
    const statements = lockVpcThenRangesStatements(db, {})
    const found = (await runPrepared(db, statements.lock, values)).rows[0]
    if (found === undefined) return undefined
    const { subnet_id, ...vpc } = found
    return { vpc, subnets: (await runPrepared(db, statements.ranges, values)).rows, subnetId: subnet_id }
  }
  const { rows } = await runPrepared(db, vpcWithRangesStatement(db, {}).find, values)
  const first = rows[0]
  if (first === undefined) return undefined
  const subnets: SubnetRange[] = []
  for (const row of rows) {
    if (row.s_label !== null && row.s_ipv4 !== null) subnets.push({ label: row.s_label, ipv4: row.s_ipv4 })
  }
  return { vpc: { id: first.id, label: first.label }, subnets }
}

/** The slots of a subnet row's insert, filled from the row's fields of the same names. */
export const subnetSlots = () => ({
  vpc_id: slot<number>('vpc_id'),
  label: slot<string>('label'),
  ipv4: slot<string>('ipv4'),
  created: slot<string>('created'),
  updated: slot<string | null>('updated'),
  json_head: slot<string>('json_head'),
  json_tail: slot<string>('json_tail'),
})

const insertSubnetStatement = defineShaped('insert subnet', (db, _shape: NoShape) => ({
  insert: db.insertInto('subnets').values(subnetSlots()).returningAll().compile(),
}))

/** A new subnet's fields; the stored JSON is derived from them. */
export type NewSubnet = Omit<NewSubnetRow, 'json_head' | 'json_tail'>

export async function insertSubnet(db: Db, row: NewSubnet): Promise<SubnetRow> {
  const values = { updated: null, ...row }
  const { rows } = await runPrepared(db, insertSubnetStatement(db, {}).insert, {
    ...values,
    ...subnetJsonParts(values),
  })
  return rows[0] as SubnetRow
}

const lockSubnetStatement = defineShaped('lock subnet of account vpc', (db, _shape: NoShape, dialect) => {
  const query = db
    .selectFrom('subnets as s')
    .innerJoin('vpcs as v', 'v.id', 's.vpc_id')
    .selectAll('s')
    .select('v.label as vpc_label')
    .where('s.id', '=', stableSlot<number>(dialect, 'subnet'))
    .where('s.vpc_id', '=', stableSlot<number>(dialect, 'vpc'))
    .where('v.account_id', '=', stableSlot<number>(dialect, 'account'))
  const lock = dialect === 'postgres' ? query.forUpdate('s') : query
  return { lock: lock.compile() as CompiledQuery<SubnetRow & { vpc_label: string }> }
})

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
  const { rows } = await runPrepared(db, lockSubnetStatement(db, {}).lock, {
    subnet: subnetId,
    vpc: vpcId,
    account: accountId,
  })
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

/** Refuses a bad X-Filter of a subnet list: apart from paging, so before the VPC is even looked up. */
export function checkSubnetFilter(db: Db, filter: string | undefined): void {
  listCriteria({ filter, spec: SUBNET_FILTERS, dialect: dialectOf(db), order: { unique: 'subnets.id' } })
}

/** The subnet list's statements, one set per X-Filter; the VPC is a slot. */
const subnetListStatements = defineShaped('subnet list', (db, shape: { filter: string | null }, dialect) => {
  const { where, order } = listCriteria({
    filter: shape.filter ?? undefined,
    spec: SUBNET_FILTERS,
    dialect,
    order: { unique: 'subnets.id' },
  })
  let query = db
    .selectFrom('subnets')
    .selectAll()
    .where('subnets.vpc_id', '=', stableSlot<number>(dialect, 'vpc'))
  if (where) query = query.where(where)
  const { count, page } = listStatements(query, order, dialect)
  return { count, page }
})

/** A page of the VPC's subnets (the filter checked by `checkSubnetFilter` first). */
export const pageVpcSubnets = (db: Db, vpcId: number, filter: string | undefined, page: PageRequest) =>
  paginate(db, subnetListStatements(db, { filter: filter ?? null }), { vpc: vpcId }, page) as Promise<
    PageResult<SubnetRow>
  >

export const findVpcSubnet = (db: Db, vpcId: number, id: number) =>
  findRow(db, 'subnets', { id, vpc_id: vpcId })

export const lockSubnetsOfVpc = (db: Db, vpcId: number): Promise<SubnetRow[]> =>
  forUpdate(db, rowsOf(db, 'subnets', { vpc_id: vpcId }).orderBy('id')).execute()

/** A subnet of the account with its VPC's region and label. */
export type AccountSubnet = SubnetRow & { region: string; vpc_label: string }

/** A subnet of the account by id alone (config interfaces name only the subnet), locked. */
export async function lockAccountSubnet(
  db: Db,
  accountId: number,
  id: number,
): Promise<AccountSubnet | undefined> {
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
export const updateSubnet = (db: Db, current: SubnetRow, values: { label?: string; updated: string }) =>
  updateRow(db, 'subnets', { id: current.id }, { ...values, ...subnetJsonParts({ ...current, ...values }) })

const deleteUnusedStatement = defineShaped('delete unused subnet', (db, _shape: NoShape, dialect) => ({
  delete: db
    .deleteFrom('subnets')
    .where('id', '=', stableSlot<number>(dialect, 'id'))
    .where(noAttachmentOn(stableSlot<number>(dialect, 'id')))
    .compile(),
}))

/**
 * Deletes the subnet unless a config interface uses it; false when it is in use. The caller holds
 * the subnet's lock, so the check and the delete see the same interfaces.
 */
export async function deleteSubnetIfUnused(db: Db, id: number): Promise<boolean> {
  const result = await runPrepared(db, deleteUnusedStatement(db, {}).delete, { id })
  return Number(result.numAffectedRows ?? 0) > 0
}
