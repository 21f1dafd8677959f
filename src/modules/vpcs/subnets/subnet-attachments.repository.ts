import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Db } from '../../../db/connect.ts'
import type { JsonSyntax } from '../vpc-json.ts'

/**
 * The VPC area's read model of the compute interfaces attached to its subnets. The
 * `compute_interfaces` table belongs to compute, which writes it (and calls the VPC services to
 * attach); the VPC area only reads it: for a subnet's `linodes`, the VPC IP records and the "subnet
 * in use" refusals. Every such read is in this file, so the VPC area depends on the table's columns
 * in one place and on no compute code.
 */

/** One config interface on a subnet: what the subnet's `linodes` list is built from. */
export interface SubnetAttachment {
  subnet_id: number
  instance_id: number
  id: number
  active: boolean
  /** The config profile the interface belongs to (sent with the real naming only). */
  config_id: number
}

/**
 * Every interface on the subnets of these VPCs, in one query (by the interfaces' vpc_id). On the
 * hot read path, hence a plain SQL template.
 */
export async function listAttachmentsOfVpcs(db: Db, vpcIds: readonly number[]): Promise<SubnetAttachment[]> {
  if (vpcIds.length === 0) return []
  const { rows } = await sql<SubnetAttachment>`select subnet_id, instance_id, id, active, config_id
    from compute_interfaces where vpc_id in (${sql.join(vpcIds)})
    order by subnet_id, instance_id, id`.execute(db)
  return rows
}

/** Every interface on these subnets, in one query (a plain template: it is on the list's hot path). */
export async function listAttachmentsOfSubnets(
  db: Db,
  subnetIds: readonly number[],
): Promise<SubnetAttachment[]> {
  if (subnetIds.length === 0) return []
  const { rows } = await sql<SubnetAttachment>`select subnet_id, instance_id, id, active, config_id
    from compute_interfaces where subnet_id in (${sql.join(subnetIds)})
    order by subnet_id, instance_id, id`.execute(db)
  return rows
}

/** The instances whose interfaces use any of these subnets, for refusal messages. */
export async function listSubnetUsers(
  db: Db,
  subnetIds: readonly number[],
): Promise<Array<{ subnet_id: number; instance_id: number; active: boolean }>> {
  if (subnetIds.length === 0) return []
  const rows = await db
    .selectFrom('compute_interfaces')
    .select(['subnet_id', 'instance_id', 'active'])
    .where('subnet_id', 'in', subnetIds)
    .orderBy('subnet_id')
    .orderBy('instance_id')
    .execute()
  return rows as Array<{ subnet_id: number; instance_id: number; active: boolean }>
}

/** True where no interface is attached to the subnet (a condition for deleting it). */
export function noAttachmentOn(subnetId: RawBuilder<number>): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from compute_interfaces where subnet_id = ${subnetId})`
}

/**
 * A subnet's `linodes` as JSON text, for the subnet `s` of the query it is part of (see
 * vpc-json.ts): each instance with an interface on it, with those interfaces (ids in order). Most
 * subnets have none: an index probe answers those without the grouping.
 */
export const subnetLinodesJson = (j: JsonSyntax, laterFields: boolean): string =>
  `case when exists (select 1 from compute_interfaces where subnet_id = s.id) then ${j.array(
    `'{"id":' || a.instance_id || ',"interfaces":[' || a.interfaces || ']}'`,
    'a.instance_id',
    `(select instance_id, ${j.join(`'{"id":' || id || ',"active":' || (case when active then 'true' else 'false' end)${laterFields ? ` || ',"config_id":' || config_id` : ''} || '}'`, 'id')} as interfaces
      from compute_interfaces where subnet_id = s.id group by instance_id) as a`,
  )} else '[]' end`

/**
 * Which VPC IP records to read: one account's, of one VPC or of those a condition keeps. The ids
 * are values, or slots of a statement prepared once (db/prepared.ts).
 */
export interface VpcIpScope {
  accountId: number | RawBuilder<number>
  /** Only this VPC, or every VPC of the account. */
  vpcId?: number | RawBuilder<number>
  /** Extra condition on the VPC, `v.id` (grants of a restricted user). */
  vpcCondition?: RawBuilder<SqlBool>
}

/** The VPCs of the scope, as a condition on the VPC `v` of each part of the records. */
function inScope(scope: VpcIpScope): RawBuilder<SqlBool> {
  const terms = [sql<SqlBool>`${sql.ref('v.account_id')} = ${scope.accountId}`]
  if (scope.vpcId !== undefined) terms.push(sql<SqlBool>`${sql.ref('v.id')} = ${scope.vpcId}`)
  if (scope.vpcCondition) terms.push(scope.vpcCondition)
  return sql<SqlBool>`${sql.join(terms, sql` and `)}`
}

/** What both parts of the records take from the interface `i`, its subnet `s` and VPC `v`. */
const placement = [
  's.vpc_id as vpc_id',
  'i.subnet_id as subnet_id',
  'v.region as region',
  'i.instance_id as linode_id',
  'i.config_id as config_id',
  'i.active as active',
] as const

/**
 * The VPC IP records as one derived table `ips`: each VPC interface's address, plus one row per
 * routed range, so that X-Filter, counting and paging all happen in SQL.
 */
export function vpcIpRecords(db: Db, scope: VpcIpScope) {
  const addresses = db
    .selectFrom('compute_interfaces as i')
    .innerJoin('subnets as s', 's.id', 'i.subnet_id')
    .innerJoin('vpcs as v', 'v.id', 's.vpc_id')
    .select([
      'i.id as interface_id',
      sql<number>`0`.as('ord'),
      'i.ipv4_vpc as address',
      sql<string | null>`null`.as('address_range'),
      ...placement,
      'i.nat_1_1 as nat_1_1',
      's.ipv4 as subnet_ipv4',
    ])
    .where(inScope(scope))
  const ranges = db
    .selectFrom('compute_interface_ranges as r')
    .innerJoin('compute_interfaces as i', 'i.id', 'r.interface_id')
    .innerJoin('subnets as s', 's.id', 'i.subnet_id')
    .innerJoin('vpcs as v', 'v.id', 's.vpc_id')
    .select([
      'i.id as interface_id',
      sql<number>`r.position + 1`.as('ord'),
      sql<string | null>`null`.as('address'),
      'r.range as address_range',
      ...placement,
      sql<string | null>`null`.as('nat_1_1'),
      's.ipv4 as subnet_ipv4',
    ])
    .where(inScope(scope))
  return db.selectFrom(addresses.unionAll(ranges).as('ips')).selectAll()
}
