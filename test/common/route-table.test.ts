import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { ApiError } from '../../src/common/errors.ts'
import { idParams } from '../../src/common/id-params.ts'
import { routeModule } from '../../src/common/route-table.ts'
import { ErrorBodySchema } from '../../src/common/schemas.ts'

const ThingParams = idParams('ownerId', 'thingId')
const ThingSchema = Type.Object({ ownerId: Type.Integer(), thingId: Type.Integer(), by: Type.String() })
const EchoPageSchema = Type.Object({
  data: Type.Array(Type.Object({ filter: Type.String() })),
  page: Type.Integer(),
  pages: Type.Integer(),
  results: Type.Integer(),
})

const thingsRoutes = routeModule({ tags: ['Things'], context: () => ({ by: 'the context' }) }, (api) => {
  api.get('/owners/:ownerId/things/:thingId', {
    auth: {},
    operationId: 'getThing',
    summary: 'View a thing',
    params: ThingParams,
    response: ThingSchema,
    handler: async (ctx, request) => ({ ...request.ids, by: ctx.by }),
  })

  api.getList('/things', {
    auth: {},
    operationId: 'getThings',
    summary: 'List things',
    response: EchoPageSchema,
    handler: async (_ctx, request) => ({
      data: [{ filter: request.list.filter ?? '' }],
      page: request.list.page.page,
      pages: request.list.page.pageSize,
      results: 1,
    }),
  })

  api.delete('/owners/:ownerId/things/:thingId', {
    auth: {},
    operationId: 'deleteThing',
    summary: 'Delete a thing',
    params: ThingParams,
    handler: async () => 'whatever the service returns',
  })
})

async function thingsApp() {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()
  app.addSchema(ErrorBodySchema)
  app.setErrorHandler((error, _request, reply) => {
    const status = error instanceof ApiError ? error.status : 500
    return reply.code(status).send({ errors: [{ reason: String(error) }] })
  })
  await app.register(thingsRoutes)
  return app
}

describe('route table', () => {
  it('hands the handler its context and the named ids of the path, as numbers', async () => {
    const app = await thingsApp()
    const response = await app.inject({ method: 'GET', url: '/owners/7/things/12' })
    assert.equal(response.statusCode, 200)
    assert.deepEqual(response.json(), { ownerId: 7, thingId: 12, by: 'the context' })
    await app.close()
  })

  it('answers 404 for an id too large to exist, before the handler runs', async () => {
    const app = await thingsApp()
    const response = await app.inject({ method: 'GET', url: '/owners/7/things/9999999999999999' })
    assert.equal(response.statusCode, 404)
    await app.close()
  })

  it('parses the page query and the X-Filter header of a list route', async () => {
    const app = await thingsApp()
    const response = await app.inject({
      method: 'GET',
      url: '/things?page=3&page_size=25',
      headers: { 'x-filter': '{"label":"a"}' },
    })
    assert.equal(response.statusCode, 200)
    assert.deepEqual(response.json(), { data: [{ filter: '{"label":"a"}' }], page: 3, pages: 25, results: 1 })
    const refused = await app.inject({ method: 'GET', url: '/things?page_size=501' })
    assert.equal(refused.statusCode, 400)
    await app.close()
  })

  it('answers {} for a route without a response schema, whatever the handler returns', async () => {
    const app = await thingsApp()
    const response = await app.inject({ method: 'DELETE', url: '/owners/7/things/12' })
    assert.equal(response.statusCode, 200)
    assert.deepEqual(response.json(), {})
    await app.close()
  })
})
