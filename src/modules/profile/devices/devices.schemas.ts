import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Page, TimestampSchema } from '../../../common/schemas.ts'

/** Key order of the real API (docs/service-facts.md#key-order). */
export const TrustedDeviceSchema = Type.Object({
  id: Type.Integer(),
  created: TimestampSchema,
  expiry: TimestampSchema,
  user_agent: Type.String(),
  last_authenticated: TimestampSchema,
  last_remote_addr: Type.String(),
})
export type TrustedDevice = Static<typeof TrustedDeviceSchema>

export const TrustedDevicePageSchema = Page(TrustedDeviceSchema)
export const DeviceParams = idParams('deviceId')
