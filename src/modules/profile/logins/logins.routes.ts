import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { LoginPageSchema, LoginParamsSchema, LoginSchema } from './logins.schemas.ts'
import * as logins from './logins.service.ts'

export const loginsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/logins',
    listRoute(
      profileRead,
      { operationId: 'getProfileLogins', summary: 'List your successful logins of the last 90 days', tags },
      LoginPageSchema,
    ),
    async (request) => logins.listLogins(contextOf(request), listInput(request)),
  )

  app.get(
    '/profile/logins/:loginId',
    route(
      profileRead,
      { operationId: 'getProfileLogin', summary: 'View one of your logins', tags, params: LoginParamsSchema },
      LoginSchema,
    ),
    async (request) => logins.getLogin(contextOf(request), { loginId: parseId(request.params.loginId) }),
  )
}
