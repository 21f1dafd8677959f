import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Nullable, Page, TimestampSchema } from '../../../common/schemas.ts'
import { term } from '../../../vocabulary/terms.ts'

/** Key order as recorded from the real API; `token` is the full secret only in the create response. */
export const TokenSchema = Type.Object({
  id: Type.Integer(),
  scopes: Type.String(term('scopes')),
  created: TimestampSchema,
  label: Type.String(),
  token: Type.String(),
  expiry: Nullable(TimestampSchema),
})
export type Token = Static<typeof TokenSchema>

export const TokenPageSchema = Page(TokenSchema)

const TokenLabelSchema = Type.String({ minLength: 1, maxLength: 100 })

export const CreateTokenBodySchema = Type.Object({
  label: TokenLabelSchema,
  scopes: Type.Optional(Type.String({ maxLength: 1024, ...term('scopes') })),
  expiry: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
})
export type CreateTokenBody = Static<typeof CreateTokenBodySchema>

export const UpdateTokenBodySchema = Type.Object({
  label: Type.Optional(TokenLabelSchema),
})

export const TokenParams = idParams('tokenId')
