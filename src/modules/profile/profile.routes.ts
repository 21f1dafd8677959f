import { routeModule } from '../../common/route-table.ts'
import { contextOf } from '../../plugins/request-context.ts'
import { appsRoutes } from './apps/apps.routes.ts'
import { devicesRoutes } from './devices/devices.routes.ts'
import { profileGrantsRoutes } from './grants/profile-grants.routes.ts'
import { loginsRoutes } from './logins/logins.routes.ts'
import { phoneRoutes } from './phone/phone.routes.ts'
import { preferencesRoutes } from './preferences/preferences.routes.ts'
import { ProfileSchema, UpdateProfileBodySchema } from './profile.schemas.ts'
import { toProfile, updateProfile } from './profile.service.ts'
import { profileWrite, PROFILE_TAGS as tags } from './profile-scopes.ts'
import { securityQuestionsRoutes } from './security-questions/security-questions.routes.ts'
import { sshKeysRoutes } from './ssh-keys/ssh-keys.routes.ts'
import { tokensRoutes } from './tokens/tokens.routes.ts'
import { twoFactorRoutes } from './two-factor/two-factor.routes.ts'

/** The whole /profile area: the profile itself here, each sub-resource in its own folder. */
export const profileRoutes = routeModule({ tags, context: contextOf }, async (api, app) => {
  api.get('/profile', {
    auth: {},
    operationId: 'getProfile',
    summary: "View the acting user's profile (any token)",
    response: ProfileSchema,
    handler: async (ctx) => toProfile(ctx.actor.user),
  })

  api.put('/profile', {
    auth: profileWrite,
    operationId: 'updateProfile',
    summary: 'Change your email, timezone, notifications, shell settings and authorized keys',
    body: UpdateProfileBodySchema,
    response: ProfileSchema,
    handler: (ctx, request) => updateProfile(ctx, request.body),
  })

  await app.register(appsRoutes)
  await app.register(devicesRoutes)
  await app.register(profileGrantsRoutes)
  await app.register(loginsRoutes)
  await app.register(phoneRoutes)
  await app.register(preferencesRoutes)
  await app.register(securityQuestionsRoutes)
  await app.register(sshKeysRoutes)
  await app.register(tokensRoutes)
  await app.register(twoFactorRoutes)
})
