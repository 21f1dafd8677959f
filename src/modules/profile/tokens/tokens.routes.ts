import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import {
  CreateTokenBodySchema,
  TokenPageSchema,
  TokenParamsSchema,
  TokenSchema,
  UpdateTokenBodySchema,
} from './tokens.schemas.ts'
import * as tokens from './tokens.service.ts'

export const tokensRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/tokens',
    listRoute(
      profileRead,
      {
        operationId: 'getPersonalAccessTokens',
        summary: 'List your personal access tokens (only their first 16 characters)',
        tags,
      },
      TokenPageSchema,
    ),
    async (request) => tokens.listTokens(contextOf(request), listInput(request)),
  )

  app.get(
    '/profile/tokens/:tokenId',
    route(
      profileRead,
      {
        operationId: 'getPersonalAccessToken',
        summary: 'View a personal access token',
        tags,
        params: TokenParamsSchema,
      },
      TokenSchema,
    ),
    async (request) => tokens.getToken(contextOf(request), { tokenId: parseId(request.params.tokenId) }),
  )

  app.post(
    '/profile/tokens',
    route(
      profileWrite,
      {
        operationId: 'createPersonalAccessToken',
        summary: 'Create a personal access token; the full token is shown only in this response',
        tags,
        body: CreateTokenBodySchema,
      },
      TokenSchema,
    ),
    async (request) => tokens.createToken(contextOf(request), request.body),
  )

  app.put(
    '/profile/tokens/:tokenId',
    route(
      profileWrite,
      {
        operationId: 'updatePersonalAccessToken',
        summary: "Change a token's label (scopes and expiry are fixed)",
        tags,
        params: TokenParamsSchema,
        body: UpdateTokenBodySchema,
      },
      TokenSchema,
    ),
    async (request) =>
      tokens.updateToken(contextOf(request), { tokenId: parseId(request.params.tokenId) }, request.body),
  )

  app.delete(
    '/profile/tokens/:tokenId',
    route(
      profileWrite,
      {
        operationId: 'deletePersonalAccessToken',
        summary: 'Revoke a personal access token (it may be the one making the request)',
        tags,
        params: TokenParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await tokens.revokeToken(contextOf(request), { tokenId: parseId(request.params.tokenId) })
      return {}
    },
  )
}
