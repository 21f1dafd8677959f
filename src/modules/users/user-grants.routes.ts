import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { categoryAuth, route } from '../../common/route-schemas.ts'
import { errorResponses } from '../../common/schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
import { GrantsDocumentSchema, UpdateGrantsBodySchema } from '../grants/grants.schemas.ts'
import * as grants from './user-grants.service.ts'
import { UsernameParamsSchema } from './users.schemas.ts'

const tags = ['Account users']
const { read, write } = categoryAuth('account')

/** A restricted user's grants, managed by the account's unrestricted users. */
export const userGrantsRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      config: { auth: read },
    },
    async (request, reply) => {
      const document = await grants.getUserGrants(contextOf(request), { username: request.params.username })
      if (document === undefined) return reply.code(204).send(null)
      return document
    },
  )

  app.put(
    '/account/users/:username/grants',
    route(
      write,
      {
        operationId: 'updateUserGrants',
        summary: "Change a restricted user's grants; entities left out keep theirs",
        tags,
        params: UsernameParamsSchema,
        body: UpdateGrantsBodySchema,
      },
      GrantsDocumentSchema,
    ),
    async (request) =>
      grants.updateUserGrants(contextOf(request), { username: request.params.username }, request.body),
  )
}
