import { buildEvent, type EventSource } from '../events/event-builder.ts'
import { aboutGrantedEntity, grantedEntity } from '../grants/granted-entity.ts'
import type { SubnetRow } from './subnets/subnets.table.ts'
import type { VpcRow } from './vpcs.table.ts'

/**
 * Event entities of the VPC area (docs/service-facts.md#events): `vpc_*` name the VPC; `subnet_*`
 * name the subnet with its VPC as secondary entity. Either way the VPC's grant decides which
 * restricted users see it.
 */
type VpcRef = Pick<VpcRow, 'id' | 'label'>
type SubnetRef = Pick<SubnetRow, 'id' | 'label'>

export const vpcEntity = (vpc: VpcRef) => grantedEntity('vpc', '/v4/vpcs', vpc)

export const subnetEntity = (vpcId: number, subnet: SubnetRef) => ({
  type: 'subnet',
  id: subnet.id,
  label: subnet.label,
  url: `/v4/vpcs/${vpcId}/subnets/${subnet.id}`,
})

export function vpcEvent(
  source: EventSource,
  action: 'vpc_create' | 'vpc_update' | 'vpc_delete',
  vpc: VpcRef,
  created: string,
) {
  return buildEvent(source, action, aboutGrantedEntity(vpcEntity(vpc)), created)
}

export function subnetEvent(
  source: EventSource,
  action: 'subnet_create' | 'subnet_update' | 'subnet_delete',
  vpc: VpcRef,
  subnet: SubnetRef,
  created: string,
) {
  return buildEvent(
    source,
    action,
    { entity: subnetEntity(vpc.id, subnet), secondary: vpcEntity(vpc), grant: { type: 'vpc', id: vpc.id } },
    created,
  )
}
