import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { AppParams, AuthorizedAppPageSchema, AuthorizedAppSchema } from './apps.schemas.ts'
import * as apps from './apps.service.ts'

export const appsRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.getList('/profile/apps', {
    auth: profileRead,
    operationId: 'getProfileApps',
    summary: 'List the OAuth apps you have authorized',
    response: AuthorizedAppPageSchema,
    handler: (ctx, request) => apps.listApps(ctx, request.list),
  })

  api.get('/profile/apps/:appId', {
    auth: profileRead,
    operationId: 'getProfileApp',
    summary: 'View an authorized app',
    params: AppParams,
    response: AuthorizedAppSchema,
    handler: (ctx, request) => apps.getApp(ctx, request.ids),
  })

  api.delete('/profile/apps/:appId', {
    auth: profileWrite,
    operationId: 'deleteProfileApp',
    summary: "Revoke an app's access; its tokens stop working at once",
    params: AppParams,
    handler: (ctx, request) => apps.revokeApp(ctx, request.ids),
  })
})
