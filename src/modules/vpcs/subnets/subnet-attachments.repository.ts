import { sql } from 'kysely'
import type { Db } from '../../../db/connect.ts'

/** One config interface on a subnet: what the subnet's `linodes` list is built from. */
export interface SubnetAttachment {
  subnet_id: number
  instance_id: number
  id: number
  active: boolean
}

const columns = ['subnet_id', 'instance_id', 'id', 'active'] as const

/**
 * Every interface on the subnets of these VPCs, in one query (by the interfaces' vpc_id). On the
 * hot read path, hence a plain SQL template.
 */
export async function listAttachmentsOfVpcs(db: Db, vpcIds: readonly number[]): Promise<SubnetAttachment[]> {
  if (vpcIds.length === 0) return []
  const { rows } = await sql<SubnetAttachment>`select subnet_id, instance_id, id, active
    from compute_interfaces where vpc_id in (${sql.join(vpcIds)})
    order by subnet_id, instance_id, id`.execute(db)
  return rows
}

export async function listAttachmentsOfSubnets(
  db: Db,
  subnetIds: readonly number[],
): Promise<SubnetAttachment[]> {
  if (subnetIds.length === 0) return []
  const rows = await db
    .selectFrom('compute_interfaces')
    .select(columns)
    .where('subnet_id', 'in', subnetIds)
    .orderBy('subnet_id')
    .orderBy('instance_id')
    .orderBy('id')
    .execute()
  return rows as SubnetAttachment[]
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
