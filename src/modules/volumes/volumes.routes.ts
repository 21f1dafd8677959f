import { categoryAuth } from '../../common/route-schemas.ts'
import { routeModule } from '../../common/route-table.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  AttachVolumeBodySchema,
  CreateVolumeBodySchema,
  ResizeVolumeBodySchema,
  UpdateVolumeBodySchema,
  VolumePageSchema,
  VolumeParams,
  VolumeSchema,
} from './volumes.schemas.ts'
import * as volumes from './volumes.service.ts'

const { read, write } = categoryAuth('volumes')

export const volumesRoutes = routeModule({ tags: ['Volumes'], context: contextOf }, (api) => {
  api.getList('/volumes', {
    auth: read,
    operationId: 'getVolumes',
    summary: 'List volumes',
    response: VolumePageSchema,
    handler: (ctx, request) => volumes.listVolumes(ctx, request.list),
  })

  api.get('/volumes/:volumeId', {
    auth: read,
    operationId: 'getVolume',
    summary: 'View a volume',
    params: VolumeParams,
    response: VolumeSchema,
    handler: (ctx, request) => volumes.getVolume(ctx, request.ids),
  })

  api.post('/volumes', {
    auth: write,
    operationId: 'createVolume',
    summary: 'Create a volume in a region, or attached to an instance',
    body: CreateVolumeBodySchema,
    response: VolumeSchema,
    handler: (ctx, request) => volumes.createVolume(ctx, request.body),
  })

  api.put('/volumes/:volumeId', {
    auth: write,
    operationId: 'updateVolume',
    summary: "Change a volume's label or tags",
    params: VolumeParams,
    body: UpdateVolumeBodySchema,
    response: VolumeSchema,
    handler: (ctx, request) => volumes.updateVolume(ctx, request.ids, request.body),
  })

  api.delete('/volumes/:volumeId', {
    auth: write,
    operationId: 'deleteVolume',
    summary: 'Delete a detached volume',
    params: VolumeParams,
    handler: (ctx, request) => volumes.deleteVolume(ctx, request.ids),
  })

  api.post('/volumes/:volumeId/attach', {
    auth: write,
    operationId: 'attachVolume',
    summary: 'Attach a volume to an instance in its region',
    params: VolumeParams,
    body: AttachVolumeBodySchema,
    response: VolumeSchema,
    handler: (ctx, request) => volumes.attachVolume(ctx, request.ids, request.body),
  })

  api.post('/volumes/:volumeId/detach', {
    auth: write,
    operationId: 'detachVolume',
    summary: 'Detach a volume from its instance',
    params: VolumeParams,
    handler: (ctx, request) => volumes.detachVolume(ctx, request.ids),
  })

  api.post('/volumes/:volumeId/resize', {
    auth: write,
    operationId: 'resizeVolume',
    summary: 'Grow a volume (its size can only increase)',
    params: VolumeParams,
    body: ResizeVolumeBodySchema,
    response: VolumeSchema,
    handler: (ctx, request) => volumes.resizeVolume(ctx, request.ids, request.body),
  })
})
