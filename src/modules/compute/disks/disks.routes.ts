import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { diskIds, instanceIds, read, tags } from '../compute-routes.ts'
import { InstanceParamsSchema } from '../instances/instances.schemas.ts'
import { DiskPageSchema, DiskParamsSchema, DiskSchema } from './disks.schemas.ts'
import * as disks from './disks.service.ts'

export const disksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/instances/:instanceId/disks',
    listRoute(
      read,
      {
        operationId: 'getComputeDisks',
        summary: "List an instance's disks",
        tags,
        params: InstanceParamsSchema,
      },
      DiskPageSchema,
    ),
    async (request) => disks.listDisks(contextOf(request), instanceIds(request.params), listInput(request)),
  )

  app.get(
    '/compute/instances/:instanceId/disks/:diskId',
    route(
      read,
      { operationId: 'getComputeDisk', summary: 'View a disk', tags, params: DiskParamsSchema },
      DiskSchema,
    ),
    async (request) => disks.getDisk(contextOf(request), diskIds(request.params)),
  )
}
