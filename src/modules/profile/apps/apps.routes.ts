import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { parsePageQuery } from '../../../common/pagination.ts'
import {
  EmptyObjectSchema,
  errorResponses,
  FilterHeadersSchema,
  PageQuerySchema,
} from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { AppParamsSchema, AuthorizedAppPageSchema, AuthorizedAppSchema } from './apps.schemas.ts'
import * as apps from './apps.service.ts'

export const appsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/apps',
    {
      schema: {
        operationId: 'getProfileApps',
        summary: 'List the OAuth apps you have authorized',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: AuthorizedAppPageSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) =>
      apps.listApps(
        app.db,
        requireActor(request),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/profile/apps/:appId',
    {
      schema: {
        operationId: 'getProfileApp',
        summary: 'View an authorized app',
        tags,
        params: AppParamsSchema,
        response: { 200: AuthorizedAppSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) => apps.getApp(app.db, requireActor(request), parseId(request.params.appId)),
  )

  app.delete(
    '/profile/apps/:appId',
    {
      schema: {
        operationId: 'deleteProfileApp',
        summary: "Revoke an app's access; its tokens stop working at once",
        tags,
        params: AppParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => {
      await apps.revokeApp(app.db, requireActor(request), parseId(request.params.appId))
      return {}
    },
  )
}
