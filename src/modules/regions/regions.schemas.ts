import { type Static, Type } from 'typebox'
import { Page } from '../../common/schemas.ts'
import { term, termKeys } from '../../vocabulary/terms.ts'

export const RegionSchema = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    country: Type.String(),
    capabilities: Type.Array(Type.String(term('capability'))),
    status: Type.String({ enum: ['ok', 'outage'] }),
    resolvers: Type.Object({ ipv4: Type.String(), ipv6: Type.String() }),
    site_type: Type.String(),
  },
  termKeys('region'),
)
export type Region = Static<typeof RegionSchema>

export const RegionAvailabilitySchema = Type.Object({
  region: Type.String(),
  plan: Type.String(),
  available: Type.Boolean(),
})
export type RegionAvailability = Static<typeof RegionAvailabilitySchema>

export const RegionPageSchema = Page(RegionSchema)
export const RegionAvailabilityPageSchema = Page(RegionAvailabilitySchema)

export const RegionParamsSchema = Type.Object({ regionId: Type.String({ maxLength: 64 }) })
