import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { AppParamsSchema, AuthorizedAppPageSchema, AuthorizedAppSchema } from './apps.schemas.ts'
import * as apps from './apps.service.ts'

export const appsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/apps',
    listRoute(
      profileRead,
      { operationId: 'getProfileApps', summary: 'List the OAuth apps you have authorized', tags },
      AuthorizedAppPageSchema,
    ),
    async (request) => apps.listApps(contextOf(request), listInput(request)),
  )

  app.get(
    '/profile/apps/:appId',
    route(
      profileRead,
      { operationId: 'getProfileApp', summary: 'View an authorized app', tags, params: AppParamsSchema },
      AuthorizedAppSchema,
    ),
    async (request) => apps.getApp(contextOf(request), { appId: parseId(request.params.appId) }),
  )

  app.delete(
    '/profile/apps/:appId',
    route(
      profileWrite,
      {
        operationId: 'deleteProfileApp',
        summary: "Revoke an app's access; its tokens stop working at once",
        tags,
        params: AppParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await apps.revokeApp(contextOf(request), { appId: parseId(request.params.appId) })
      return {}
    },
  )
}
