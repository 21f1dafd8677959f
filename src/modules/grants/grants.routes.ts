import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errorResponses } from '../../common/schemas.ts'
import { requireActor } from '../../plugins/auth.ts'
import type { Scope } from '../auth/scopes.ts'
import { UsernameParamsSchema } from '../users/users.schemas.ts'
import { GrantsDocumentSchema, UpdateGrantsBodySchema } from './grants.schemas.ts'
import * as grants from './grants.service.ts'

const tags = ['Account users']

export const grantsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/account/users/:username/grants',
    {
      schema: {
        operationId: 'getUserGrants',
        summary: "View a restricted user's grants (204 with no body for an unrestricted user)",
        tags,
        params: UsernameParamsSchema,
        response: { 200: GrantsDocumentSchema, 204: Type.Null(), ...errorResponses },
      },
      config: { auth: { scopes: ['account:read_only'] as Scope[] } },
    },
    async (request, reply) => {
      const document = await grants.getUserGrants(app.db, requireActor(request), request.params.username)
      if (document === undefined) return reply.code(204).send(null)
      return document
    },
  )

  app.put(
    '/account/users/:username/grants',
    {
      schema: {
        operationId: 'updateUserGrants',
        summary: "Change a restricted user's grants; entities left out keep theirs",
        tags,
        params: UsernameParamsSchema,
        body: UpdateGrantsBodySchema,
        response: { 200: GrantsDocumentSchema, ...errorResponses },
      },
      config: { auth: { scopes: ['account:read_write'] as Scope[] } },
    },
    async (request) =>
      grants.updateUserGrants(app.db, requireActor(request), request.params.username, request.body),
  )
}
