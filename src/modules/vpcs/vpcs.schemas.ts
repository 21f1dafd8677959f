import { type Static, Type } from 'typebox'
import { idParams } from '../../common/id-params.ts'
import { Nullable, Page, TimestampSchema } from '../../common/schemas.ts'
import { CreateSubnetBodySchema, NetworkLabelSchema, SubnetSchema } from './subnets/subnets.schemas.ts'

/** Key order of the real API (docs/service-facts.md#key-order). */
export const VpcSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  description: Type.String(),
  region: Type.String(),
  subnets: Type.Array(SubnetSchema),
  created: TimestampSchema,
  updated: Nullable(TimestampSchema),
})
export type Vpc = Static<typeof VpcSchema>

export const VpcPageSchema = Page(VpcSchema)

export const CreateVpcBodySchema = Type.Object({
  label: NetworkLabelSchema,
  region: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.Optional(Type.String({ maxLength: 255 })),
  subnets: Type.Optional(Type.Array(CreateSubnetBodySchema, { maxItems: 10 })),
})
export type CreateVpcBody = Static<typeof CreateVpcBodySchema>

/** Only label and description can change (API rule 4); anything else sent is dropped. */
export const UpdateVpcBodySchema = Type.Object({
  label: Type.Optional(NetworkLabelSchema),
  description: Type.Optional(Type.String({ maxLength: 255 })),
})
export type UpdateVpcBody = Static<typeof UpdateVpcBodySchema>

export const VpcParams = idParams('vpcId')
