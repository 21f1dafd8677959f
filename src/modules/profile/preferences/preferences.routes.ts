import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { type Preferences, PreferencesSchema } from './preferences.schemas.ts'
import * as preferences from './preferences.service.ts'

export const preferencesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/preferences',
    {
      schema: {
        operationId: 'getUserPreferences',
        summary: 'View the preferences stored for the OAuth client of this token',
        tags,
        response: { 200: PreferencesSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) => preferences.getPreferences(app.db, requireActor(request)),
  )

  app.put(
    '/profile/preferences',
    {
      schema: {
        operationId: 'updateUserPreferences',
        summary: 'Replace the preferences of this OAuth client (any JSON object, at most 65,535 characters)',
        tags,
        body: PreferencesSchema,
        response: { 200: PreferencesSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) =>
      preferences.replacePreferences(app.db, requireActor(request), request.body as Preferences),
  )
}
