import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { LoginPageSchema, LoginParams, LoginSchema } from './logins.schemas.ts'
import * as logins from './logins.service.ts'

export const loginsRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.getList('/profile/logins', {
    auth: profileRead,
    operationId: 'getProfileLogins',
    summary: 'List your successful logins of the last 90 days',
    response: LoginPageSchema,
    handler: (ctx, request) => logins.listLogins(ctx, request.list),
  })

  api.get('/profile/logins/:loginId', {
    auth: profileRead,
    operationId: 'getProfileLogin',
    summary: 'View one of your logins',
    params: LoginParams,
    response: LoginSchema,
    handler: (ctx, request) => logins.getLogin(ctx, request.ids),
  })
})
