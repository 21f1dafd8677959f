import { type Static, Type } from 'typebox'
import { IdSchema, Nullable } from '../../common/schemas.ts'
import { termKeys } from '../../vocabulary/terms.ts'

const PermissionSchema = Nullable(Type.String({ enum: ['read_only', 'read_write'] }))

export const GrantSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  permissions: PermissionSchema,
})
export type Grant = Static<typeof GrantSchema>

export const GlobalGrantsSchema = Type.Object(
  {
    account_access: PermissionSchema,
    add_databases: Type.Boolean(),
    add_domains: Type.Boolean(),
    add_firewalls: Type.Boolean(),
    add_images: Type.Boolean(),
    add_computes: Type.Boolean(),
    add_monitoring: Type.Boolean(),
    add_loadbalancers: Type.Boolean(),
    add_scripts: Type.Boolean(),
    add_volumes: Type.Boolean(),
    add_vpcs: Type.Boolean(),
    cancel_account: Type.Boolean(),
    monitoring_subscription: Type.Boolean(),
  },
  termKeys('globalGrants'),
)
export type GlobalGrants = Static<typeof GlobalGrantsSchema>

/** Entity keys in the order of the API document, then `global`. */
export const GrantsDocumentSchema = Type.Object(
  {
    database: Type.Array(GrantSchema),
    domain: Type.Array(GrantSchema),
    image: Type.Array(GrantSchema),
    compute: Type.Array(GrantSchema),
    monitoring: Type.Array(GrantSchema),
    loadbalancer: Type.Array(GrantSchema),
    script: Type.Array(GrantSchema),
    volume: Type.Array(GrantSchema),
    vpc: Type.Array(GrantSchema),
    global: GlobalGrantsSchema,
  },
  termKeys('grants'),
)
export type GrantsDocument = Static<typeof GrantsDocumentSchema>

const GrantUpdatesSchema = Type.Optional(
  // One entry per entity of the type: bounded well above any account's count of one type.
  Type.Array(Type.Object({ id: IdSchema, permissions: PermissionSchema }), { maxItems: 10_000 }),
)

export const UpdateGrantsBodySchema = Type.Object(
  {
    global: Type.Optional(Type.Partial(GlobalGrantsSchema, termKeys('globalGrants'))),
    database: GrantUpdatesSchema,
    domain: GrantUpdatesSchema,
    image: GrantUpdatesSchema,
    compute: GrantUpdatesSchema,
    monitoring: GrantUpdatesSchema,
    loadbalancer: GrantUpdatesSchema,
    script: GrantUpdatesSchema,
    volume: GrantUpdatesSchema,
    vpc: GrantUpdatesSchema,
  },
  termKeys('grants'),
)
export type UpdateGrantsBody = Static<typeof UpdateGrantsBodySchema>
