import { categoryAuth } from '../../common/route-schemas.ts'
import { routeModule } from '../../common/route-table.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  CreateOAuthClientBodySchema,
  OAuthClientPageSchema,
  OAuthClientParamsSchema,
  OAuthClientSchema,
  UpdateOAuthClientBodySchema,
} from './oauth-clients.schemas.ts'
import * as clients from './oauth-clients.service.ts'

const { read, write } = categoryAuth('account')

export const oauthClientsRoutes = routeModule(
  { tags: ['Account OAuth clients'], context: contextOf },
  (api) => {
    api.getList('/account/oauth-clients', {
      auth: read,
      operationId: 'getClients',
      summary: "List the account's OAuth clients",
      response: OAuthClientPageSchema,
      handler: (ctx, request) => clients.listOAuthClients(ctx, request.list),
    })

    api.post('/account/oauth-clients', {
      auth: write,
      operationId: 'createClient',
      summary: 'Register an OAuth client; the answer holds its secret, shown this once',
      body: CreateOAuthClientBodySchema,
      response: OAuthClientSchema,
      handler: (ctx, request) => clients.createOAuthClient(ctx, request.body),
    })

    api.get('/account/oauth-clients/:clientId', {
      auth: read,
      operationId: 'getClient',
      summary: 'View an OAuth client',
      params: OAuthClientParamsSchema,
      response: OAuthClientSchema,
      handler: (ctx, request) => clients.getOAuthClient(ctx, request.params),
    })

    api.put('/account/oauth-clients/:clientId', {
      auth: write,
      operationId: 'updateClient',
      summary: "Change an OAuth client's label, redirect URI or kind",
      params: OAuthClientParamsSchema,
      body: UpdateOAuthClientBodySchema,
      response: OAuthClientSchema,
      handler: (ctx, request) => clients.updateOAuthClient(ctx, request.params, request.body),
    })

    api.delete('/account/oauth-clients/:clientId', {
      auth: write,
      operationId: 'deleteClient',
      summary: 'Delete an OAuth client; every token users gave it stops working',
      params: OAuthClientParamsSchema,
      handler: (ctx, request) => clients.deleteOAuthClient(ctx, request.params),
    })

    api.post('/account/oauth-clients/:clientId/reset-secret', {
      auth: write,
      operationId: 'resetClientSecret',
      summary: 'Replace the secret of an OAuth client; the new one is shown this once',
      params: OAuthClientParamsSchema,
      response: OAuthClientSchema,
      handler: (ctx, request) => clients.resetOAuthClientSecret(ctx, request.params),
    })
  },
)
