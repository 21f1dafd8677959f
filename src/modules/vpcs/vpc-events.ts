import type { EventEntity, EventSecondaryEntity, NewEvent } from '../events/events.repository.ts'
import type { SubnetRow } from './subnets/subnets.table.ts'
import type { VpcRow } from './vpcs.table.ts'

/**
 * Event entities of the VPC area (api-facts 9.2): `vpc_*` name the VPC; `subnet_*` name the subnet
 * with its VPC as secondary entity. Either way the VPC's grant decides which restricted users see it.
 */
type VpcRef = Pick<VpcRow, 'id' | 'label'>

export const vpcEntity = (vpc: VpcRef): EventEntity & EventSecondaryEntity => ({
  type: 'vpc',
  id: vpc.id,
  label: vpc.label,
  url: `/v4/vpcs/${vpc.id}`,
})

export const subnetEntity = (vpcId: number, subnet: Pick<SubnetRow, 'id' | 'label'>): EventEntity => ({
  type: 'subnet',
  id: subnet.id,
  label: subnet.label,
  url: `/v4/vpcs/${vpcId}/subnets/${subnet.id}`,
})

interface Actorish {
  accountId: number
  user: { id: number; username: string }
}

export function vpcEvent(actor: Actorish, action: string, vpc: VpcRef, created: string): NewEvent {
  return {
    accountId: actor.accountId,
    user: { id: actor.user.id, username: actor.user.username },
    action,
    entity: vpcEntity(vpc),
    grant: { type: 'vpc', id: vpc.id },
    created,
  }
}

export function subnetEvent(
  actor: Actorish,
  action: string,
  vpc: VpcRef,
  subnet: Pick<SubnetRow, 'id' | 'label'>,
  created: string,
): NewEvent {
  return {
    accountId: actor.accountId,
    user: { id: actor.user.id, username: actor.user.username },
    action,
    entity: subnetEntity(vpc.id, subnet),
    secondary: vpcEntity(vpc),
    grant: { type: 'vpc', id: vpc.id },
    created,
  }
}
