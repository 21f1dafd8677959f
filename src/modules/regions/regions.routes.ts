import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { listInput, listRoute, route } from '../../common/route-schemas.ts'
import { publicContextOf } from '../../plugins/request-context.ts'
import {
  RegionAvailabilityPageSchema,
  RegionAvailabilitySchema,
  RegionPageSchema,
  RegionParamsSchema,
  RegionSchema,
} from './regions.schemas.ts'
import * as regions from './regions.service.ts'

const tags = ['Regions']
const auth = { public: true }

export const regionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/regions',
    listRoute(auth, { operationId: 'getRegions', summary: 'List regions', tags }, RegionPageSchema),
    async (request) => regions.listRegions(publicContextOf(request), listInput(request)),
  )

  app.get(
    '/regions/availability',
    listRoute(
      auth,
      {
        operationId: 'getRegionsAvailability',
        summary: 'List availability of premium and GPU plans in every region',
        tags,
      },
      RegionAvailabilityPageSchema,
    ),
    async (request) => regions.listAvailability(publicContextOf(request), listInput(request)),
  )

  app.get(
    '/regions/:regionId',
    route(
      auth,
      { operationId: 'getRegion', summary: 'View a region', tags, params: RegionParamsSchema },
      RegionSchema,
    ),
    async (request) => regions.getRegion(publicContextOf(request), { regionId: request.params.regionId }),
  )

  app.get(
    '/regions/:regionId/availability',
    route(
      auth,
      {
        operationId: 'getRegionAvailability',
        summary: "View a region's plan availability (a bare array)",
        tags,
        params: RegionParamsSchema,
      },
      Type.Array(RegionAvailabilitySchema),
    ),
    async (request) =>
      regions.getRegionAvailability(publicContextOf(request), { regionId: request.params.regionId }),
  )
}
