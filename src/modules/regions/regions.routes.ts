import { Type } from 'typebox'
import { routeModule } from '../../common/route-table.ts'
import { publicContextOf } from '../../plugins/request-context.ts'
import {
  RegionAvailabilityPageSchema,
  RegionAvailabilitySchema,
  RegionPageSchema,
  RegionParamsSchema,
  RegionSchema,
} from './regions.schemas.ts'
import * as regions from './regions.service.ts'

const auth = { public: true }

export const regionsRoutes = routeModule({ tags: ['Regions'], context: publicContextOf }, (api) => {
  api.getList('/regions', {
    auth,
    operationId: 'getRegions',
    summary: 'List regions',
    response: RegionPageSchema,
    handler: (ctx, request) => regions.listRegions(ctx, request.list),
  })

  api.getList('/regions/availability', {
    auth,
    operationId: 'getRegionsAvailability',
    summary: 'List availability of premium and GPU plans in every region',
    response: RegionAvailabilityPageSchema,
    handler: (ctx, request) => regions.listAvailability(ctx, request.list),
  })

  api.get('/regions/:regionId', {
    auth,
    operationId: 'getRegion',
    summary: 'View a region',
    params: RegionParamsSchema,
    response: RegionSchema,
    handler: (ctx, request) => regions.getRegion(ctx, request.params),
  })

  api.get('/regions/:regionId/availability', {
    auth,
    operationId: 'getRegionAvailability',
    summary: "View a region's plan availability (a bare array)",
    params: RegionParamsSchema,
    response: Type.Array(RegionAvailabilitySchema),
    handler: (ctx, request) => regions.getRegionAvailability(ctx, request.params),
  })
})
