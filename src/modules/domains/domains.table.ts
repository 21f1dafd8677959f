import type { Insertable, Selectable, Updateable } from 'kysely'
import type { AccountOwned, Tagged, Timestamps } from '../../db/columns.ts'

export type DomainType = 'master' | 'slave'
export type DomainStatus = 'active' | 'disabled' | 'edit_mode'

export interface DomainTable extends AccountOwned, Tagged, Timestamps {
  /** The zone's name, lower case, without a trailing dot. */
  domain: string
  type: DomainType
  status: DomainStatus
  soa_email: string
  description: string
  group: string
  /** JSON arrays of IP addresses. */
  master_ips: string
  axfr_ips: string
  ttl_sec: number
  refresh_sec: number
  retry_sec: number
  expire_sec: number
}

export type DomainRow = Selectable<DomainTable>
export type NewDomainRow = Insertable<DomainTable>
export type DomainRowUpdate = Updateable<DomainTable>
