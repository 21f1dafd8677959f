import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { ConfirmTfaBodySchema, TfaScratchSchema, TfaSecretSchema } from './two-factor.schemas.ts'
import * as tfa from './two-factor.service.ts'

export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/profile/tfa-enable',
    route(
      profileWrite,
      {
        operationId: 'tfaEnable',
        summary: 'Get a new TOTP secret to confirm within 15 minutes (needs answered security questions)',
        tags,
      },
      TfaSecretSchema,
    ),
    async (request) => tfa.enableTfa(contextOf(request), app.secretBox),
  )

  app.post(
    '/profile/tfa-enable-confirm',
    route(
      profileWrite,
      {
        operationId: 'tfaConfirm',
        summary: 'Turn two-factor authentication on with a current code; returns a one-use scratch code',
        tags,
        body: ConfirmTfaBodySchema,
      },
      TfaScratchSchema,
    ),
    async (request) => tfa.confirmTfa(contextOf(request), app.secretBox, request.body.tfa_code),
  )

  app.post(
    '/profile/tfa-disable',
    route(
      profileWrite,
      { operationId: 'tfaDisable', summary: 'Turn two-factor authentication off', tags },
      EmptyObjectSchema,
    ),
    async (request) => {
      await tfa.disableTfa(contextOf(request))
      return {}
    },
  )
}
