import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errorResponses } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { GrantsDocumentSchema } from '../../grants/grants.schemas.ts'
import { PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { getProfileGrants } from './profile-grants.service.ts'

export const profileGrantsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/grants',
    {
      schema: {
        operationId: 'getProfileGrants',
        summary: 'Your grants (any token); 204 with no body for an unrestricted user',
        tags,
        response: { 200: GrantsDocumentSchema, 204: Type.Null(), ...errorResponses },
      },
      config: { auth: {} },
    },
    async (request, reply) => {
      const document = await getProfileGrants(contextOf(request))
      if (document === undefined) return reply.code(204).send(null)
      return document
    },
  )
}
