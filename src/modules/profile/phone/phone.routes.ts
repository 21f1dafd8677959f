import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { SendPhoneCodeBodySchema, VerifyPhoneCodeBodySchema } from './phone.schemas.ts'
import * as phone from './phone.service.ts'

export const phoneRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/profile/phone-number',
    route(
      profileWrite,
      {
        operationId: 'postProfilePhoneNumber',
        summary: 'Send a verification code (valid 10 minutes) to a phone number',
        tags,
        body: SendPhoneCodeBodySchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await phone.sendPhoneCode(
        contextOf(request),
        { box: app.secretBox, sender: app.phoneSender, limits: app.phoneSendLimits },
        request.body,
      )
      return {}
    },
  )

  app.delete(
    '/profile/phone-number',
    route(
      profileWrite,
      {
        operationId: 'deleteProfilePhoneNumber',
        summary: 'Remove your verified phone number (opts out of SMS)',
        tags,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await phone.deletePhoneNumber(contextOf(request))
      return {}
    },
  )

  app.post(
    '/profile/phone-number/verify',
    route(
      profileWrite,
      {
        operationId: 'postProfilePhoneNumberVerify',
        summary: 'Verify the phone number with the code it received',
        tags,
        body: VerifyPhoneCodeBodySchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await phone.verifyPhoneCode(contextOf(request), app.secretBox, request.body.otp_code)
      return {}
    },
  )
}
