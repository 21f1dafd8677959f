import { buildEvent, type EventSource } from '../events/event-builder.ts'
import { aboutGrantedEntity, grantedEntity } from '../grants/granted-entity.ts'
import type { DomainRow } from './domains.table.ts'

type DomainRef = Pick<DomainRow, 'id' | 'domain'>
type RecordRef = { id: number; name: string }

export const domainEntity = (domain: DomainRef) =>
  grantedEntity('domain', '/v4/domains', { id: domain.id, label: domain.domain })

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
  return buildEvent(source, action, aboutGrantedEntity(domainEntity(domain)), created)
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
      ...aboutGrantedEntity(domainEntity(domain)),
      secondary: {
        type: 'domain_record',
        id: record.id,
        label: record.name,
        url: `/v4/domains/${domain.id}/records/${record.id}`,
      },
    },
    created,
  )
}
