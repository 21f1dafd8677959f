import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { EmptyObjectSchema, errorResponses } from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import { profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { ConfirmTfaBodySchema, TfaScratchSchema, TfaSecretSchema } from './two-factor.schemas.ts'
import * as tfa from './two-factor.service.ts'

export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/profile/tfa-enable',
    {
      schema: {
        operationId: 'tfaEnable',
        summary: 'Get a new TOTP secret to confirm within 15 minutes (needs answered security questions)',
        tags,
        response: { 200: TfaSecretSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => tfa.enableTfa(app.db, app.secretBox, app.clock, requireActor(request)),
  )

  app.post(
    '/profile/tfa-enable-confirm',
    {
      schema: {
        operationId: 'tfaConfirm',
        summary: 'Turn two-factor authentication on with a current code; returns a one-use scratch code',
        tags,
        body: ConfirmTfaBodySchema,
        response: { 200: TfaScratchSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) =>
      tfa.confirmTfa(app.db, app.secretBox, app.clock, requireActor(request), request.body.tfa_code),
  )

  app.post(
    '/profile/tfa-disable',
    {
      schema: {
        operationId: 'tfaDisable',
        summary: 'Turn two-factor authentication off',
        tags,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => {
      await tfa.disableTfa(app.db, app.clock, requireActor(request))
      return {}
    },
  )
}
