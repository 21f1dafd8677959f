import type { Selectable } from 'kysely'

export interface GlobalGrantTable {
  user_id: number
  account_access: string | null
  add_databases: boolean
  add_domains: boolean
  add_firewalls: boolean
  add_images: boolean
  add_computes: boolean
  add_monitoring: boolean
  add_loadbalancers: boolean
  add_scripts: boolean
  add_volumes: boolean
  add_vpcs: boolean
  cancel_account: boolean
  monitoring_subscription: boolean
}

export interface EntityGrantTable {
  user_id: number
  entity_type: string
  entity_id: number
  permissions: string
}

export type GlobalGrantRow = Selectable<GlobalGrantTable>
export type EntityGrantRow = Selectable<EntityGrantTable>
