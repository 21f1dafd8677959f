import { buildEvent, type EventSource } from '../events/event-builder.ts'
import type { DomainRow } from './domains.table.ts'

type DomainRef = Pick<DomainRow, 'id' | 'domain'>
type RecordRef = { id: number; name: string }

export const domainEntity = (domain: DomainRef) => ({
  type: 'domain',
  id: domain.id,
  label: domain.domain,
  url: `/v4/domains/${domain.id}`,
})

/**
 * `domain_*` events name the domain; `domain_record_*` events name it too, with the record as
 * secondary entity. The domain's grant decides who else sees them.
 */
export function domainEvent(
  source: EventSource,
  action: 'domain_create' | 'domain_update' | 'domain_delete',
  domain: DomainRef,
  created: string,
) {
  return buildEvent(
    source,
    action,
    { entity: domainEntity(domain), grant: { type: 'domain', id: domain.id } },
    created,
  )
}

export function domainRecordEvent(
  source: EventSource,
  action: 'domain_record_create' | 'domain_record_update' | 'domain_record_delete',
  domain: DomainRef,
  record: RecordRef,
  created: string,
) {
  return buildEvent(
    source,
    action,
    {
      entity: domainEntity(domain),
      secondary: {
        type: 'domain_record',
        id: record.id,
        label: record.name,
        url: `/v4/domains/${domain.id}/records/${record.id}`,
      },
      grant: { type: 'domain', id: domain.id },
    },
    created,
  )
}
