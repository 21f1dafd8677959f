import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Page, TimestampSchema } from '../../../common/schemas.ts'

/** Key order of the real API (docs/service-facts.md#key-order). */
export const LoginSchema = Type.Object({
  id: Type.Integer(),
  datetime: TimestampSchema,
  ip: Type.String(),
  username: Type.String(),
  status: Type.String({ enum: ['successful', 'failed'] }),
  restricted: Type.Boolean(),
})
export type Login = Static<typeof LoginSchema>

export const LoginPageSchema = Page(LoginSchema)
export const LoginParams = idParams('loginId')
