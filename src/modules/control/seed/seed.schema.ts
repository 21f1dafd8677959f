import { type Static, Type } from 'typebox'
import { TagsSchema } from '../../../common/schemas.ts'
import { term, termKeys } from '../../../vocabulary/terms.ts'
import { CreateInstanceBodySchema } from '../../compute/instances/instances.schemas.ts'
import { InterfaceInputSchema } from '../../compute/interfaces/interfaces.schemas.ts'
import { GlobalGrantsSchema } from '../../grants/grants.schemas.ts'
import { EmailSchema, UsernameSchema } from '../../users/users.schemas.ts'
import { CreateVpcBodySchema } from '../../vpcs/vpcs.schemas.ts'

/**
 * The seed file: a declarative starting state. The shapes of VPCs, subnets and instances are the
 * API's own request bodies, so a seed says what a client would send; entities are named by label
 * where the API would take an id (a subnet of an interface, an entity of a grant).
 * `docs/seed.schema.json` is generated from this (npm run seed:schema).
 */
const Permission = Type.Union([Type.Literal('read_only'), Type.Literal('read_write')])
const LabelGrant = Type.Object(
  {
    label: Type.String({ description: 'the label of an entity of this account in the seed' }),
    permissions: Permission,
  },
  { additionalProperties: false },
)

export const SeedTokenSchema = Type.Object(
  {
    token: Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'the token itself: 64 hex characters' }),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    scopes: Type.Optional(
      Type.String({ description: 'e.g. "*" or "vpc:read_write events:read_only" [*]', ...term('scopes') }),
    ),
    expiry: Type.Optional(Type.String({ description: 'when it stops working, by the virtual clock' })),
  },
  { additionalProperties: false },
)

export const SeedUserSchema = Type.Object(
  {
    username: UsernameSchema,
    email: EmailSchema,
    restricted: Type.Optional(Type.Boolean()),
    grants: Type.Optional(
      Type.Object(
        {
          global: Type.Optional(Type.Partial(GlobalGrantsSchema, termKeys('globalGrants'))),
          vpc: Type.Optional(Type.Array(LabelGrant)),
          compute: Type.Optional(Type.Array(LabelGrant)),
          image: Type.Optional(Type.Array(LabelGrant)),
        },
        { additionalProperties: false, ...termKeys('grants') },
      ),
    ),
    tokens: Type.Optional(Type.Array(SeedTokenSchema)),
    ssh_keys: Type.Optional(
      Type.Array(
        Type.Object(
          { label: Type.Optional(Type.String({ maxLength: 64 })), ssh_key: Type.String() },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
)

const { subnet_id: _subnetId, ...interfaceFields } = InterfaceInputSchema.properties
export const SeedInterfaceSchema = Type.Object(
  {
    ...interfaceFields,
    vpc: Type.Optional(Type.String({ description: 'label of a VPC of the account (purpose vpc)' })),
    subnet: Type.Optional(Type.String({ description: 'label of a subnet of that VPC (purpose vpc)' })),
  },
  { additionalProperties: false },
)

const { interfaces: _interfaces, ...instanceFields } = CreateInstanceBodySchema.properties
export const SeedInstanceSchema = Type.Object(
  { ...instanceFields, interfaces: Type.Optional(Type.Array(SeedInterfaceSchema, { maxItems: 3 })) },
  { additionalProperties: false },
)

export const SeedImageSchema = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 50 }),
    description: Type.Optional(Type.String({ maxLength: 65000 })),
    region: Type.Optional(Type.String()),
    // The stored size is a 32-bit integer on PostgreSQL.
    size: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'MB' })),
    cloud_init: Type.Optional(Type.Boolean()),
    tags: Type.Optional(TagsSchema),
  },
  { additionalProperties: false },
)

export const SeedAccountSchema = Type.Object(
  {
    users: Type.Array(SeedUserSchema, {
      minItems: 1,
      description: 'the first user owns the account and must not be restricted',
    }),
    vpcs: Type.Optional(
      Type.Array(Type.Object({ ...CreateVpcBodySchema.properties }, { additionalProperties: false })),
    ),
    instances: Type.Optional(Type.Array(SeedInstanceSchema)),
    images: Type.Optional(Type.Array(SeedImageSchema)),
  },
  { additionalProperties: false },
)

export const SeedFileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    clock: Type.Optional(
      Type.Object(
        { at: Type.String({ description: 'the virtual time the seed starts at, e.g. 2030-01-01T00:00:00' }) },
        { additionalProperties: false },
      ),
    ),
    accounts: Type.Optional(Type.Array(SeedAccountSchema)),
  },
  {
    $id: 'https://cloudplane.dev/seed.schema.json',
    title: 'cloudplane seed file',
    additionalProperties: false,
  },
)

export type SeedFile = Static<typeof SeedFileSchema>
export type SeedAccount = Static<typeof SeedAccountSchema>
export type SeedUser = Static<typeof SeedUserSchema>
