import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { API_ROOT } from '../routes.ts'
import { SPEC_VERSION } from './headers.ts'

const IndexSchema = Type.Object({
  name: Type.String(),
  spec_version: Type.String(),
  api: Type.String(),
  docs: Type.String(),
  openapi: Type.String(),
})

const INDEX = {
  name: 'cloudplane: Cloud Infrastructure API v4',
  spec_version: SPEC_VERSION,
  api: '/v4',
  docs: '/docs',
  openapi: '/v4/openapi.json',
}

/**
 * `GET /` and `GET /v4` (and `/v4beta`): where the reference and the OpenAPI document are, rather
 * than a bare 404 for someone who opens the server's address in a browser. Everything else
 * unknown still gets the API's 404 envelope.
 */
export async function apiIndexRoutes(app: FastifyInstance): Promise<void> {
  const schema = { hide: true, response: { 200: IndexSchema } }
  app.get('/', { schema }, async () => INDEX)
  // `/v4beta` is routed here too (routes.ts).
  app.get(API_ROOT, { schema, config: { auth: { public: true } } }, async () => INDEX)
}
