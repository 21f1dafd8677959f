import { type Static, Type } from 'typebox'
import { IdParamSchema, Nullable, Page, TimestampSchema } from '../../../common/schemas.ts'

/** Key order of the real API (api-facts appendix). */
export const AuthorizedAppSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  thumbnail_url: Type.String(),
  scopes: Type.String(),
  created: TimestampSchema,
  expiry: Nullable(TimestampSchema),
  website: Type.String(),
})
export type AuthorizedApp = Static<typeof AuthorizedAppSchema>

export const AuthorizedAppPageSchema = Page(AuthorizedAppSchema)
export const AppParamsSchema = Type.Object({ appId: IdParamSchema })
