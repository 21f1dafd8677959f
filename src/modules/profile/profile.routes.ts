import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { route } from '../../common/route-schemas.ts'
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
export const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile',
    route(
      {},
      { operationId: 'getProfile', summary: "View the acting user's profile (any token)", tags },
      ProfileSchema,
    ),
    async (request) => toProfile(contextOf(request).actor.user),
  )

  app.put(
    '/profile',
    route(
      profileWrite,
      {
        operationId: 'updateProfile',
        summary: 'Change your email, timezone, notifications, shell settings and authorized keys',
        tags,
        body: UpdateProfileBodySchema,
      },
      ProfileSchema,
    ),
    async (request) => updateProfile(contextOf(request), request.body),
  )

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
}
