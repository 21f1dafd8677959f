import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { parsePageQuery } from '../../../common/pagination.ts'
import { errorResponses, FilterHeadersSchema, PageQuerySchema } from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import { profileRead, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { LoginPageSchema, LoginParamsSchema, LoginSchema } from './logins.schemas.ts'
import * as logins from './logins.service.ts'

export const loginsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/logins',
    {
      schema: {
        operationId: 'getProfileLogins',
        summary: 'List your successful logins of the last 90 days',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: LoginPageSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) =>
      logins.listLogins(
        app.db,
        app.clock,
        requireActor(request),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/profile/logins/:loginId',
    {
      schema: {
        operationId: 'getProfileLogin',
        summary: 'View one of your logins',
        tags,
        params: LoginParamsSchema,
        response: { 200: LoginSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) =>
      logins.getLogin(app.db, app.clock, requireActor(request), parseId(request.params.loginId)),
  )
}
