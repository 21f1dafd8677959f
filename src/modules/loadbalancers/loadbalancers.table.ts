import type { Insertable, Selectable, Updateable } from 'kysely'
import type { AccountOwned, Tagged, Timestamps } from '../../db/columns.ts'

export interface LoadBalancerTable extends AccountOwned, Tagged, Timestamps {
  label: string
  region: string
  hostname: string
  ipv4: string
  ipv6: string
  client_conn_throttle: number
}

export type LoadBalancerRow = Selectable<LoadBalancerTable>
export type NewLoadBalancerRow = Insertable<LoadBalancerTable>
export type LoadBalancerRowUpdate = Updateable<LoadBalancerTable>
