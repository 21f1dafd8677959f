import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { parsePageQuery } from '../../../common/pagination.ts'
import { errorResponses, FilterHeadersSchema, PageQuerySchema } from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import type { Scope } from '../../auth/scopes.ts'
import { InstanceParamsSchema } from '../instances/instances.schemas.ts'
import { DiskPageSchema, DiskParamsSchema, DiskSchema } from './disks.schemas.ts'
import * as disks from './disks.service.ts'

const tags = ['Compute instances']
const read = { scopes: ['computes:read_only'] as Scope[] }

export const disksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/instances/:instanceId/disks',
    {
      schema: {
        operationId: 'getComputeDisks',
        summary: "List an instance's disks",
        tags,
        params: InstanceParamsSchema,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: DiskPageSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      disks.listDisks(
        app.db,
        requireActor(request),
        parseId(request.params.instanceId),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/compute/instances/:instanceId/disks/:diskId',
    {
      schema: {
        operationId: 'getComputeDisk',
        summary: 'View a disk',
        tags,
        params: DiskParamsSchema,
        response: { 200: DiskSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      disks.getDisk(
        app.db,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.diskId),
      ),
  )
}
