import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../common/schemas.ts'
import { requireActor } from '../../plugins/auth.ts'
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
    {
      schema: {
        operationId: 'getProfile',
        summary: "View the acting user's profile (any token)",
        tags,
        response: { 200: ProfileSchema, ...errorResponses },
      },
      config: { auth: {} },
    },
    async (request) => toProfile(requireActor(request).user),
  )

  app.put(
    '/profile',
    {
      schema: {
        operationId: 'updateProfile',
        summary: 'Change your email, timezone, notifications, shell settings and authorized keys',
        tags,
        body: UpdateProfileBodySchema,
        response: { 200: ProfileSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => updateProfile(app.db, app.clock, requireActor(request), request.body),
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
