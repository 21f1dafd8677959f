import { type Static, Type } from 'typebox'
import { Nullable, Page } from '../../common/schemas.ts'

/** Key order of the real API; `secret` reads `<REDACTED>` except when created or reset. */
export const OAuthClientSchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  public: Type.Boolean(),
  redirect_uri: Type.String(),
  secret: Type.String(),
  status: Type.String({ enum: ['active', 'disabled', 'suspended'] }),
  thumbnail_url: Nullable(Type.String()),
})
export type OAuthClient = Static<typeof OAuthClientSchema>

export const OAuthClientPageSchema = Page(OAuthClientSchema)

const LabelSchema = Type.String({
  minLength: 1,
  maxLength: 512,
  'x-reason': 'Length must be 1-512 characters',
})
const RedirectUriSchema = Type.String({ minLength: 1, maxLength: 2000 })

export const CreateOAuthClientBodySchema = Type.Object({
  label: LabelSchema,
  redirect_uri: RedirectUriSchema,
  public: Type.Optional(Type.Boolean()),
})
export type CreateOAuthClientBody = Static<typeof CreateOAuthClientBodySchema>

export const UpdateOAuthClientBodySchema = Type.Object({
  label: Type.Optional(LabelSchema),
  redirect_uri: Type.Optional(RedirectUriSchema),
  public: Type.Optional(Type.Boolean()),
})
export type UpdateOAuthClientBody = Static<typeof UpdateOAuthClientBodySchema>

/** Client ids are 20 hex characters; anything else names no client (404, not 400). */
export const OAuthClientParamsSchema = Type.Object({ clientId: Type.String({ maxLength: 64 }) })
