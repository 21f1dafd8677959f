import { Type } from 'typebox'
import { TimestampSchema } from '../../../common/schemas.ts'

export const TfaSecretSchema = Type.Object({
  secret: Type.String({ description: 'base32 TOTP secret for an authenticator app' }),
  expiry: TimestampSchema,
})

export const ConfirmTfaBodySchema = Type.Object({
  tfa_code: Type.String({
    pattern: '^[0-9]{6}$',
    'x-reason': 'tfa_code must be the 6-digit code from your authenticator app',
  }),
})

export const TfaScratchSchema = Type.Object({
  scratch: Type.String({ description: 'one-use code accepted in place of a two-factor code' }),
})
