import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { publicContextOf } from '../../../plugins/request-context.ts'
import { ComputeTypePageSchema, ComputeTypeSchema, TypeParamsSchema } from './types.schemas.ts'
import * as types from './types.service.ts'

const tags = ['Compute types']
const auth = { public: true }

/** The instance type catalogue: public, like regions. */
export const computeTypesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/types',
    listRoute(
      auth,
      { operationId: 'getComputeTypes', summary: 'List compute instance types', tags },
      ComputeTypePageSchema,
    ),
    async (request) => types.listTypes(publicContextOf(request), listInput(request)),
  )

  app.get(
    '/compute/types/:typeId',
    route(
      auth,
      {
        operationId: 'getComputeType',
        summary: 'View a compute instance type',
        tags,
        params: TypeParamsSchema,
      },
      ComputeTypeSchema,
    ),
    async (request) => types.getType(publicContextOf(request), { typeId: request.params.typeId }),
  )
}
