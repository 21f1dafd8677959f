import { type SqlBool, sql } from 'kysely'
import type { FilterSpec } from '../../common/x-filter.ts'

const isImageId = (value: unknown) => typeof value === 'string' && value.startsWith('private/')

/** `entity.id` accepts the number or, for images, `private/<n>`. */
function parseEntityId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined
  if (typeof value === 'string') {
    const m = /^(?:private\/)?([0-9]{1,15})$/.exec(value)
    return m ? Number(m[1]) : undefined
  }
  return undefined
}

/** The event list's filterable fields and their columns. */
export const EVENT_FILTERS: FilterSpec = {
  id: { column: 'events.id', type: 'integer' },
  action: { column: 'events.action', type: 'string' },
  created: { column: 'events.created', type: 'timestamp' },
  'entity.id': {
    column: 'events.entity_id',
    type: 'integer',
    nullable: true,
    parse: parseEntityId,
    scope: (value) => (isImageId(value) ? sql<SqlBool>`events.entity_type = 'image'` : undefined),
  },
  'entity.type': { column: 'events.entity_type', type: 'string', nullable: true },
  read: { column: 'events.read', type: 'boolean' },
}
