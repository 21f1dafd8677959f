import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema, errorResponses } from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import { profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { SendPhoneCodeBodySchema, VerifyPhoneCodeBodySchema } from './phone.schemas.ts'
import * as phone from './phone.service.ts'

export const phoneRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/profile/phone-number',
    {
      schema: {
        operationId: 'postProfilePhoneNumber',
        summary: 'Send a verification code (valid 10 minutes) to a phone number',
        tags,
        body: SendPhoneCodeBodySchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => {
      await phone.sendPhoneCode(
        app.db,
        app.secretBox,
        app.phoneSender,
        app.clock,
        requireActor(request),
        request.body,
      )
      return {}
    },
  )

  app.delete(
    '/profile/phone-number',
    {
      schema: {
        operationId: 'deleteProfilePhoneNumber',
        summary: 'Remove your verified phone number (opts out of SMS)',
        tags,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => {
      await phone.deletePhoneNumber(app.db, requireActor(request))
      return {}
    },
  )

  app.post(
    '/profile/phone-number/verify',
    {
      schema: {
        operationId: 'postProfilePhoneNumberVerify',
        summary: 'Verify the phone number with the code it received',
        tags,
        body: VerifyPhoneCodeBodySchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => {
      await phone.verifyPhoneCode(
        app.db,
        app.secretBox,
        app.clock,
        requireActor(request),
        request.body.otp_code,
      )
      return {}
    },
  )
}
