import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { read, tags } from '../compute-routes.ts'
import { InstanceParams } from '../instances/instances.schemas.ts'
import { DiskPageSchema, DiskParams, DiskSchema } from './disks.schemas.ts'
import * as disks from './disks.service.ts'

export const disksRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.getList('/compute/instances/:instanceId/disks', {
    auth: read,
    operationId: 'getComputeDisks',
    summary: "List an instance's disks",
    params: InstanceParams,
    response: DiskPageSchema,
    handler: (ctx, request) => disks.listDisks(ctx, request.ids, request.list),
  })

  api.get('/compute/instances/:instanceId/disks/:diskId', {
    auth: read,
    operationId: 'getComputeDisk',
    summary: 'View a disk',
    params: DiskParams,
    response: DiskSchema,
    handler: (ctx, request) => disks.getDisk(ctx, request.ids),
  })
})
