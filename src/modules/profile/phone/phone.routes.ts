import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { SendPhoneCodeBodySchema, VerifyPhoneCodeBodySchema } from './phone.schemas.ts'
import * as phone from './phone.service.ts'

export const phoneRoutes = routeModule({ tags, context: contextOf }, (api, app) => {
  api.post('/profile/phone-number', {
    auth: profileWrite,
    operationId: 'postProfilePhoneNumber',
    summary: 'Send a verification code (valid 10 minutes) to a phone number',
    body: SendPhoneCodeBodySchema,
    handler: (ctx, request) =>
      phone.sendPhoneCode(
        ctx,
        { box: app.secretBox, sender: app.phoneSender, limits: app.phoneSendLimits },
        request.body,
      ),
  })

  api.delete('/profile/phone-number', {
    auth: profileWrite,
    operationId: 'deleteProfilePhoneNumber',
    summary: 'Remove your verified phone number (opts out of SMS)',
    handler: (ctx) => phone.deletePhoneNumber(ctx),
  })

  api.post('/profile/phone-number/verify', {
    auth: profileWrite,
    operationId: 'postProfilePhoneNumberVerify',
    summary: 'Verify the phone number with the code it received',
    body: VerifyPhoneCodeBodySchema,
    handler: (ctx, request) => phone.verifyPhoneCode(ctx, app.secretBox, request.body.otp_code),
  })
})
