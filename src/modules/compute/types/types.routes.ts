import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parsePageQuery } from '../../../common/pagination.ts'
import { errorResponses, FilterHeadersSchema, PageQuerySchema } from '../../../common/schemas.ts'
import { ComputeTypePageSchema, ComputeTypeSchema, TypeParamsSchema } from './types.schemas.ts'
import * as types from './types.service.ts'

const tags = ['Compute types']
const auth = { public: true }

/** The instance type catalogue: public, like regions. */
export const computeTypesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/types',
    {
      schema: {
        operationId: 'getComputeTypes',
        summary: 'List compute instance types',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: ComputeTypePageSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) => types.listTypes(app.db, parsePageQuery(request.query), request.headers['x-filter']),
  )

  app.get(
    '/compute/types/:typeId',
    {
      schema: {
        operationId: 'getComputeType',
        summary: 'View a compute instance type',
        tags,
        params: TypeParamsSchema,
        response: { 200: ComputeTypeSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) => types.getType(app.db, request.params.typeId),
  )
}
