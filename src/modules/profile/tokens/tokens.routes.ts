import { sendPage } from '../../../common/rendered-page-cache.ts'
import { routeModule } from '../../../common/route-table.ts'
import { countersOf } from '../../../plugins/db.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import {
  CreateTokenBodySchema,
  TokenPageSchema,
  TokenParams,
  TokenSchema,
  UpdateTokenBodySchema,
} from './tokens.schemas.ts'
import * as tokens from './tokens.service.ts'

export const tokensRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.getList('/profile/tokens', {
    auth: profileRead,
    operationId: 'getPersonalAccessTokens',
    summary: 'List your personal access tokens (only their first 16 characters)',
    response: TokenPageSchema,
    handler: async (ctx, request, reply) =>
      sendPage(reply, await tokens.listTokensPage(ctx, request.list, countersOf(reply.request))),
  })

  api.get('/profile/tokens/:tokenId', {
    auth: profileRead,
    operationId: 'getPersonalAccessToken',
    summary: 'View a personal access token',
    params: TokenParams,
    response: TokenSchema,
    handler: (ctx, request) => tokens.getToken(ctx, request.ids),
  })

  api.post('/profile/tokens', {
    auth: profileWrite,
    operationId: 'createPersonalAccessToken',
    summary: 'Create a personal access token; the full token is shown only in this response',
    body: CreateTokenBodySchema,
    response: TokenSchema,
    handler: (ctx, request) => tokens.createToken(ctx, request.body),
  })

  api.put('/profile/tokens/:tokenId', {
    auth: profileWrite,
    operationId: 'updatePersonalAccessToken',
    summary: "Change a token's label (scopes and expiry are fixed)",
    params: TokenParams,
    body: UpdateTokenBodySchema,
    response: TokenSchema,
    handler: (ctx, request) => tokens.updateToken(ctx, request.ids, request.body),
  })

  api.delete('/profile/tokens/:tokenId', {
    auth: profileWrite,
    operationId: 'deletePersonalAccessToken',
    summary: 'Revoke a personal access token (it may be the one making the request)',
    params: TokenParams,
    handler: (ctx, request) => tokens.revokeToken(ctx, request.ids),
  })
})
