import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { type Preferences, PreferencesSchema } from './preferences.schemas.ts'
import * as preferences from './preferences.service.ts'

export const preferencesRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.get('/profile/preferences', {
    auth: profileRead,
    operationId: 'getUserPreferences',
    summary: 'View the preferences stored for the OAuth client of this token',
    response: PreferencesSchema,
    handler: (ctx) => preferences.getPreferences(ctx),
  })

  api.put('/profile/preferences', {
    auth: profileWrite,
    operationId: 'updateUserPreferences',
    summary: 'Replace the preferences of this OAuth client (any JSON object, at most 65,535 characters)',
    body: PreferencesSchema,
    response: PreferencesSchema,
    handler: (ctx, request) => preferences.replacePreferences(ctx, request.body as Preferences),
  })
})
