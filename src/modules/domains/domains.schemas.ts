import { type Static, Type } from 'typebox'
import { idParams } from '../../common/id-params.ts'
import { Page, TagsSchema, TimestampSchema } from '../../common/schemas.ts'

const DomainTypeSchema = Type.Union([Type.Literal('master'), Type.Literal('slave')])
const DomainStatusSchema = Type.Union([
  Type.Literal('active'),
  Type.Literal('disabled'),
  Type.Literal('edit_mode'),
])

/** The domain (zone) in the key order the real service sends it. */
export const DomainSchema = Type.Object({
  id: Type.Integer(),
  type: DomainTypeSchema,
  domain: Type.String(),
  tags: Type.Array(Type.String()),
  group: Type.String(),
  status: DomainStatusSchema,
  description: Type.String(),
  soa_email: Type.String(),
  retry_sec: Type.Integer(),
  master_ips: Type.Array(Type.String()),
  axfr_ips: Type.Array(Type.String()),
  expire_sec: Type.Integer(),
  refresh_sec: Type.Integer(),
  ttl_sec: Type.Integer(),
  created: TimestampSchema,
  updated: TimestampSchema,
})
export type Domain = Static<typeof DomainSchema>

export const DomainPageSchema = Page(DomainSchema)

const SecondsSchema = Type.Integer({ minimum: 0 })
const AddressesSchema = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })
/** Fields a zone takes at creation and later; the rules beyond their shapes are the service's. */
const changeable = {
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  status: DomainStatusSchema,
  soa_email: Type.String({ maxLength: 128 }),
  description: Type.String({ maxLength: 253 }),
  group: Type.String({ maxLength: 50 }),
  master_ips: AddressesSchema,
  axfr_ips: AddressesSchema,
  ttl_sec: SecondsSchema,
  refresh_sec: SecondsSchema,
  retry_sec: SecondsSchema,
  expire_sec: SecondsSchema,
  tags: TagsSchema,
}

export const CreateDomainBodySchema = Type.Object(
  {
    domain: changeable.domain,
    type: DomainTypeSchema,
    status: Type.Optional(changeable.status),
    soa_email: Type.Optional(changeable.soa_email),
    description: Type.Optional(changeable.description),
    group: Type.Optional(changeable.group),
    master_ips: Type.Optional(changeable.master_ips),
    axfr_ips: Type.Optional(changeable.axfr_ips),
    ttl_sec: Type.Optional(changeable.ttl_sec),
    refresh_sec: Type.Optional(changeable.refresh_sec),
    retry_sec: Type.Optional(changeable.retry_sec),
    expire_sec: Type.Optional(changeable.expire_sec),
    tags: Type.Optional(changeable.tags),
  },
  { description: 'A `master` zone needs `soa_email`; a `slave` zone needs `master_ips`.' },
)
export type CreateDomainBody = Static<typeof CreateDomainBodySchema>

export const UpdateDomainBodySchema = Type.Partial(Type.Object({ ...changeable, type: DomainTypeSchema }))
export type UpdateDomainBody = Static<typeof UpdateDomainBodySchema>

export const DomainParams = idParams('domainId')
