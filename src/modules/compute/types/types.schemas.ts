import { type Static, Type } from 'typebox'
import { Nullable, Page } from '../../../common/schemas.ts'
import { term } from '../../../vocabulary/terms.ts'

const PriceSchema = Type.Object({ hourly: Type.Number(), monthly: Type.Number() })
const RegionPriceSchema = Type.Object({ id: Type.String(), hourly: Type.Number(), monthly: Type.Number() })

/** Key order as the real type list returns it. */
export const ComputeTypeSchema = Type.Object({
  id: Type.String(),
  label: Type.String(term('typeLabel')),
  price: PriceSchema,
  region_prices: Type.Array(RegionPriceSchema),
  addons: Type.Object({
    backups: Type.Object({ price: PriceSchema, region_prices: Type.Array(RegionPriceSchema) }),
  }),
  memory: Type.Integer(),
  disk: Type.Integer(),
  transfer: Type.Integer(),
  vcpus: Type.Integer(),
  gpus: Type.Integer(),
  network_out: Type.Integer(),
  class: Type.String({ enum: ['nanode', 'standard', 'highmem', 'dedicated', 'gpu'] }),
  successor: Nullable(Type.String()),
})
export type ComputeType = Static<typeof ComputeTypeSchema>

export const ComputeTypePageSchema = Page(ComputeTypeSchema)

export const TypeParamsSchema = Type.Object({ typeId: Type.String({ maxLength: 64 }) })
