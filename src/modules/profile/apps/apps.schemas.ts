import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Nullable, Page, TimestampSchema } from '../../../common/schemas.ts'
import { term } from '../../../vocabulary/terms.ts'

/** Key order of the real API (docs/service-facts.md#key-order). */
export const AuthorizedAppSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  thumbnail_url: Type.String(),
  scopes: Type.String(term('scopes')),
  created: TimestampSchema,
  expiry: Nullable(TimestampSchema),
  website: Type.String(),
})
export type AuthorizedApp = Static<typeof AuthorizedAppSchema>

export const AuthorizedAppPageSchema = Page(AuthorizedAppSchema)
export const AppParams = idParams('appId')
