import { Type } from 'typebox'

export const SendPhoneCodeBodySchema = Type.Object({
  iso_code: Type.String({
    pattern: '^[A-Za-z]{2}$',
    'x-reason': 'iso_code must be a two-letter ISO 3166 country code',
  }),
  phone_number: Type.String({ minLength: 1, maxLength: 64 }),
})

export const VerifyPhoneCodeBodySchema = Type.Object({
  otp_code: Type.String({
    pattern: '^[0-9]+$',
    maxLength: 16,
    'x-reason': 'The verification code must only contain digits.',
  }),
})
