import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ErrorBodySchema } from '../common/schemas.ts'
import { SPEC_VERSION } from './headers.ts'

/**
 * The OpenAPI 3.1 document, generated from the route schemas: served at `/v4/openapi.json`, shown
 * at `/docs`, and exported to `openapi.json` by `npm run openapi:export`. Only the `/v4` copy of
 * each route is documented (paths relative to the `/v4` server URL); `/v4beta` mirrors it.
 */
async function openapiPlugin(app: FastifyInstance) {
  app.addSchema(ErrorBodySchema)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'cloudplane: Cloud Infrastructure API v4',
        version: SPEC_VERSION,
        description:
          'An open-source implementation of the Cloud Infrastructure API v4. Errors are always `{"errors":[{"reason","field"?}]}`. Lists take `page` and `page_size` (25-500) and the `X-Filter` header.',
      },
      servers: [{ url: '/v4' }],
      components: {
        securitySchemes: {
          personalAccessToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal access token or OAuth token: `Authorization: Bearer <token>`',
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `schema${i}`) },
    transform: ({ schema, url, route }) => {
      const documented = url.startsWith('/v4/')
      const auth = route.config?.auth
      const transformed: Record<string, unknown> = { ...schema, hide: !documented || schema?.hide === true }
      if (auth !== undefined) {
        const bearer = { personalAccessToken: auth.scopes ?? [] }
        transformed.security = auth.public ? [{}, bearer] : [bearer]
        transformed['x-accepted-oauth-scopes'] = auth.scopes?.join(',') ?? '*'
      }
      return { schema: transformed, url: documented ? url.slice(3) : url }
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: false })
}

export const openapi = fp(openapiPlugin, { name: 'openapi' })

/** Registers `GET /openapi.json` under each API prefix; call inside the prefixed scope. */
export async function openapiRoute(app: FastifyInstance) {
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: { public: true } } }, async () =>
    app.swagger(),
  )
}
