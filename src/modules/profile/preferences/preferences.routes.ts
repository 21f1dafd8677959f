import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { route } from '../../../common/route-schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { type Preferences, PreferencesSchema } from './preferences.schemas.ts'
import * as preferences from './preferences.service.ts'

export const preferencesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/preferences',
    route(
      profileRead,
      {
        operationId: 'getUserPreferences',
        summary: 'View the preferences stored for the OAuth client of this token',
        tags,
      },
      PreferencesSchema,
    ),
    async (request) => preferences.getPreferences(contextOf(request)),
  )

  app.put(
    '/profile/preferences',
    route(
      profileWrite,
      {
        operationId: 'updateUserPreferences',
        summary: 'Replace the preferences of this OAuth client (any JSON object, at most 65,535 characters)',
        tags,
        body: PreferencesSchema,
      },
      PreferencesSchema,
    ),
    async (request) => preferences.replacePreferences(contextOf(request), request.body as Preferences),
  )
}
