import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { parsePageQuery } from '../../common/pagination.ts'
import { errorResponses, FilterHeadersSchema, PageQuerySchema } from '../../common/schemas.ts'
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
    {
      schema: {
        operationId: 'getRegions',
        summary: 'List regions',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: RegionPageSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) =>
      regions.listRegions(app.db, parsePageQuery(request.query), request.headers['x-filter']),
  )

  app.get(
    '/regions/availability',
    {
      schema: {
        operationId: 'getRegionsAvailability',
        summary: 'List availability of premium and GPU plans in every region',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: RegionAvailabilityPageSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) =>
      regions.listAvailability(app.db, parsePageQuery(request.query), request.headers['x-filter']),
  )

  app.get(
    '/regions/:regionId',
    {
      schema: {
        operationId: 'getRegion',
        summary: 'View a region',
        tags,
        params: RegionParamsSchema,
        response: { 200: RegionSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) => regions.getRegion(app.db, request.params.regionId),
  )

  app.get(
    '/regions/:regionId/availability',
    {
      schema: {
        operationId: 'getRegionAvailability',
        summary: "View a region's plan availability (a bare array)",
        tags,
        params: RegionParamsSchema,
        response: { 200: Type.Array(RegionAvailabilitySchema), ...errorResponses },
      },
      config: { auth },
    },
    async (request) => regions.getRegionAvailability(app.db, request.params.regionId),
  )
}
