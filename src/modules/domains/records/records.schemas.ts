import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Nullable, Page, TimestampSchema } from '../../../common/schemas.ts'
import type { CaaTag } from './records.table.ts'

const RecordTypeSchema = Type.Union([
  Type.Literal('A'),
  Type.Literal('AAAA'),
  Type.Literal('NS'),
  Type.Literal('MX'),
  Type.Literal('CNAME'),
  Type.Literal('TXT'),
  Type.Literal('SRV'),
  Type.Literal('PTR'),
  Type.Literal('CAA'),
])

/** A CAA record's property, or null for other types. */
const CaaTagSchema = Type.Unsafe<CaaTag | null>({
  type: ['string', 'null'],
  enum: ['issue', 'issuewild', 'iodef', null],
})

/** The record in the key order the real service sends it; fields its type does not use are 0 or null. */
export const DomainRecordSchema = Type.Object({
  id: Type.Integer(),
  type: RecordTypeSchema,
  /** Relative to the zone; '' is the zone itself. */
  name: Type.String(),
  target: Type.String(),
  priority: Type.Integer(),
  weight: Type.Integer(),
  port: Type.Integer(),
  service: Nullable(Type.String()),
  protocol: Nullable(Type.String()),
  ttl_sec: Type.Integer(),
  tag: CaaTagSchema,
  created: TimestampSchema,
  updated: TimestampSchema,
})
export type DomainRecord = Static<typeof DomainRecordSchema>

export const DomainRecordPageSchema = Page(DomainRecordSchema)

/** Fields a record takes; which are needed, and what they must hold, depends on its type. */
const fields = {
  name: Type.String({ maxLength: 100 }),
  target: Type.String({ maxLength: 65535 }),
  priority: Type.Integer({ minimum: 0, maximum: 255 }),
  weight: Type.Integer({ minimum: 0, maximum: 65535 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  service: Nullable(Type.String({ maxLength: 100 })),
  protocol: Nullable(Type.String({ maxLength: 100 })),
  ttl_sec: Type.Integer({ minimum: 0 }),
  tag: CaaTagSchema,
}

export const CreateDomainRecordBodySchema = Type.Object(
  {
    type: RecordTypeSchema,
    ...Type.Partial(Type.Object(fields)).properties,
  },
  {
    description:
      'Each type needs its own fields: A, AAAA, CNAME, NS, PTR and TXT a `target` (an address or a name as the type says); MX a `target` and `priority`; SRV `service`, `protocol`, `priority`, `weight`, `port` and `target`; CAA `tag` and `target`.',
  },
)
export type CreateDomainRecordBody = Static<typeof CreateDomainRecordBodySchema>

/** A record keeps its type; the rest can change under the same rules. */
export const UpdateDomainRecordBodySchema = Type.Partial(Type.Object(fields))
export type UpdateDomainRecordBody = Static<typeof UpdateDomainRecordBodySchema>

export const DomainRecordParams = idParams('domainId', 'recordId')
export const DomainRecordsParams = idParams('domainId')
