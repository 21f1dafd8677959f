import type { Insertable, Selectable, Updateable } from 'kysely'
import type { SerialKey, Timestamps } from '../../../db/columns.ts'

export const RECORD_TYPES = ['A', 'AAAA', 'NS', 'MX', 'CNAME', 'TXT', 'SRV', 'PTR', 'CAA'] as const
export type RecordType = (typeof RECORD_TYPES)[number]

export type CaaTag = 'issue' | 'issuewild' | 'iodef'

export interface DomainRecordTable extends SerialKey, Timestamps {
  domain_id: number
  type: RecordType
  /** Relative to the zone; '' is the zone itself. */
  name: string
  target: string
  priority: number
  weight: number
  port: number
  service: string | null
  protocol: string | null
  ttl_sec: number
  /** CAA records only. */
  tag: CaaTag | null
}

export type DomainRecordRow = Selectable<DomainRecordTable>
export type NewDomainRecordRow = Insertable<DomainRecordTable>
export type DomainRecordRowUpdate = Updateable<DomainRecordTable>
