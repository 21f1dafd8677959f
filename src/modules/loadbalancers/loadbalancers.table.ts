import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

export interface LoadBalancerTable {
  id: Generated<number>
  account_id: number
  label: string
  region: string
  hostname: string
  ipv4: string
  ipv6: string
  client_conn_throttle: number
  /** JSON array of tags. */
  tags: string
  created: string
  updated: string
}

export type LoadBalancerRow = Selectable<LoadBalancerTable>
export type NewLoadBalancerRow = Insertable<LoadBalancerTable>
export type LoadBalancerRowUpdate = Updateable<LoadBalancerTable>
