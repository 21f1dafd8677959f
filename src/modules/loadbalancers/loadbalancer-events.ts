import { buildEvent, type EventSource } from '../events/event-builder.ts'
import { aboutGrantedEntity, grantedEntity } from '../grants/granted-entity.ts'
import type { LoadBalancerRow } from './loadbalancers.table.ts'

type LoadBalancerRef = Pick<LoadBalancerRow, 'id' | 'label'>

export const loadBalancerEntity = (lb: LoadBalancerRef) =>
  grantedEntity('loadbalancer', '/v4/loadbalancers', lb)

/** `nodebalancer_*` events name the load balancer; its grant decides who else sees them. */
export function loadBalancerEvent(
  source: EventSource,
  action: 'nodebalancer_create' | 'nodebalancer_update' | 'nodebalancer_delete',
  lb: LoadBalancerRef,
  created: string,
) {
  return buildEvent(source, action, aboutGrantedEntity(loadBalancerEntity(lb)), created)
}
