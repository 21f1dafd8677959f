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
    {
      schema: {
        operationId: 'getPersonalAccessTokens',
        summary: 'List your personal access tokens (only their first 16 characters)',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: TokenPageSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) =>
      tokens.listTokens(
        app.db,
        app.clock,
        requireActor(request),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/profile/tokens/:tokenId',
    {
      schema: {
        operationId: 'getPersonalAccessToken',
        summary: 'View a personal access token',
        tags,
        params: TokenParamsSchema,
        response: { 200: TokenSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) =>
      tokens.getToken(app.db, app.clock, requireActor(request), parseId(request.params.tokenId)),
  )

  app.post(
    '/profile/tokens',
    {
      schema: {
        operationId: 'createPersonalAccessToken',
        summary: 'Create a personal access token; the full token is shown only in this response',
        tags,
        body: CreateTokenBodySchema,
        response: { 200: TokenSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => tokens.createToken(app.db, app.clock, requireActor(request), request.body),
  )

  app.put(
    '/profile/tokens/:tokenId',
    {
      schema: {
        operationId: 'updatePersonalAccessToken',
        summary: "Change a token's label (scopes and expiry are fixed)",
        tags,
        params: TokenParamsSchema,
        body: UpdateTokenBodySchema,
        response: { 200: TokenSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) =>
      tokens.updateToken(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.tokenId),
        request.body,
      ),
  )

  app.delete(
    '/profile/tokens/:tokenId',
    {
      schema: {
        operationId: 'deletePersonalAccessToken',
        summary: 'Revoke a personal access token (it may be the one making the request)',
        tags,
        params: TokenParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => {
      await tokens.revokeToken(app.db, app.clock, requireActor(request), parseId(request.params.tokenId))
      return {}
    },
  )
}
