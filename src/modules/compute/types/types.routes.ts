import { routeModule } from '../../../common/route-table.ts'
import { publicContextOf } from '../../../plugins/request-context.ts'
import { ComputeTypePageSchema, ComputeTypeSchema, TypeParamsSchema } from './types.schemas.ts'
import * as types from './types.service.ts'

const auth = { public: true }

/** The instance type catalogue: public, like regions. */
export const computeTypesRoutes = routeModule(
  { tags: ['Compute types'], context: publicContextOf },
  (api) => {
    api.getList('/compute/types', {
      auth,
      operationId: 'getComputeTypes',
      summary: 'List compute instance types',
      response: ComputeTypePageSchema,
      handler: (ctx, request) => types.listTypes(ctx, request.list),
    })

    api.get('/compute/types/:typeId', {
      auth,
      operationId: 'getComputeType',
      summary: 'View a compute instance type',
      params: TypeParamsSchema,
      response: ComputeTypeSchema,
      handler: (ctx, request) => types.getType(ctx, request.params),
    })
  },
)
