import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { categoryAuth, listInput, listRoute, route } from '../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../common/schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  CreateOAuthClientBodySchema,
  OAuthClientPageSchema,
  OAuthClientParamsSchema,
  OAuthClientSchema,
  UpdateOAuthClientBodySchema,
} from './oauth-clients.schemas.ts'
import * as clients from './oauth-clients.service.ts'

const tags = ['Account OAuth clients']
const { read, write } = categoryAuth('account')

export const oauthClientsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/account/oauth-clients',
    listRoute(
      read,
      { operationId: 'getClients', summary: "List the account's OAuth clients", tags },
      OAuthClientPageSchema,
    ),
    async (request) => clients.listOAuthClients(contextOf(request), listInput(request)),
  )

  app.post(
    '/account/oauth-clients',
    route(
      write,
      {
        operationId: 'createClient',
        summary: 'Register an OAuth client; the answer holds its secret, shown this once',
        tags,
        body: CreateOAuthClientBodySchema,
      },
      OAuthClientSchema,
    ),
    async (request) => clients.createOAuthClient(contextOf(request), request.body),
  )

  app.get(
    '/account/oauth-clients/:clientId',
    route(
      read,
      { operationId: 'getClient', summary: 'View an OAuth client', tags, params: OAuthClientParamsSchema },
      OAuthClientSchema,
    ),
    async (request) => clients.getOAuthClient(contextOf(request), { clientId: request.params.clientId }),
  )

  app.put(
    '/account/oauth-clients/:clientId',
    route(
      write,
      {
        operationId: 'updateClient',
        summary: "Change an OAuth client's label, redirect URI or kind",
        tags,
        params: OAuthClientParamsSchema,
        body: UpdateOAuthClientBodySchema,
      },
      OAuthClientSchema,
    ),
    async (request) =>
      clients.updateOAuthClient(contextOf(request), { clientId: request.params.clientId }, request.body),
  )

  app.delete(
    '/account/oauth-clients/:clientId',
    route(
      write,
      {
        operationId: 'deleteClient',
        summary: 'Delete an OAuth client; every token users gave it stops working',
        tags,
        params: OAuthClientParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await clients.deleteOAuthClient(contextOf(request), { clientId: request.params.clientId })
      return {}
    },
  )

  app.post(
    '/account/oauth-clients/:clientId/reset-secret',
    route(
      write,
      {
        operationId: 'resetClientSecret',
        summary: 'Replace the secret of an OAuth client; the new one is shown this once',
        tags,
        params: OAuthClientParamsSchema,
      },
      OAuthClientSchema,
    ),
    async (request) =>
      clients.resetOAuthClientSecret(contextOf(request), { clientId: request.params.clientId }),
  )
}
