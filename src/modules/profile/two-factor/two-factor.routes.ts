import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { ConfirmTfaBodySchema, TfaScratchSchema, TfaSecretSchema } from './two-factor.schemas.ts'
import * as tfa from './two-factor.service.ts'

export const twoFactorRoutes = routeModule({ tags, context: contextOf }, (api, app) => {
  api.post('/profile/tfa-enable', {
    auth: profileWrite,
    operationId: 'tfaEnable',
    summary: 'Get a new TOTP secret to confirm within 15 minutes (needs answered security questions)',
    response: TfaSecretSchema,
    handler: (ctx) => tfa.enableTfa(ctx, app.secretBox),
  })

  api.post('/profile/tfa-enable-confirm', {
    auth: profileWrite,
    operationId: 'tfaConfirm',
    summary: 'Turn two-factor authentication on with a current code; returns a one-use scratch code',
    body: ConfirmTfaBodySchema,
    response: TfaScratchSchema,
    handler: (ctx, request) => tfa.confirmTfa(ctx, app.secretBox, request.body.tfa_code),
  })

  api.post('/profile/tfa-disable', {
    auth: profileWrite,
    operationId: 'tfaDisable',
    summary: 'Turn two-factor authentication off',
    handler: (ctx) => tfa.disableTfa(ctx),
  })
})
