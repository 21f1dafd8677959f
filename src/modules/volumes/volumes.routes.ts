import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../common/ids.ts'
import { categoryAuth, listInput, listRoute, route } from '../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../common/schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  AttachVolumeBodySchema,
  CreateVolumeBodySchema,
  ResizeVolumeBodySchema,
  UpdateVolumeBodySchema,
  VolumePageSchema,
  VolumeParamsSchema,
  VolumeSchema,
} from './volumes.schemas.ts'
import * as volumes from './volumes.service.ts'

const tags = ['Volumes']
const { read, write } = categoryAuth('volumes')
const ids = (params: { volumeId: string }) => ({ volumeId: parseId(params.volumeId) })

export const volumesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/volumes',
    listRoute(read, { operationId: 'getVolumes', summary: 'List volumes', tags }, VolumePageSchema),
    async (request) => volumes.listVolumes(contextOf(request), listInput(request)),
  )

  app.get(
    '/volumes/:volumeId',
    route(
      read,
      { operationId: 'getVolume', summary: 'View a volume', tags, params: VolumeParamsSchema },
      VolumeSchema,
    ),
    async (request) => volumes.getVolume(contextOf(request), ids(request.params)),
  )

  app.post(
    '/volumes',
    route(
      write,
      {
        operationId: 'createVolume',
        summary: 'Create a volume in a region, or attached to an instance',
        tags,
        body: CreateVolumeBodySchema,
      },
      VolumeSchema,
    ),
    async (request) => volumes.createVolume(contextOf(request), request.body),
  )

  app.put(
    '/volumes/:volumeId',
    route(
      write,
      {
        operationId: 'updateVolume',
        summary: "Change a volume's label or tags",
        tags,
        params: VolumeParamsSchema,
        body: UpdateVolumeBodySchema,
      },
      VolumeSchema,
    ),
    async (request) => volumes.updateVolume(contextOf(request), ids(request.params), request.body),
  )

  app.delete(
    '/volumes/:volumeId',
    route(
      write,
      { operationId: 'deleteVolume', summary: 'Delete a detached volume', tags, params: VolumeParamsSchema },
      EmptyObjectSchema,
    ),
    async (request) => {
      await volumes.deleteVolume(contextOf(request), ids(request.params))
      return {}
    },
  )

  app.post(
    '/volumes/:volumeId/attach',
    route(
      write,
      {
        operationId: 'attachVolume',
        summary: 'Attach a volume to an instance in its region',
        tags,
        params: VolumeParamsSchema,
        body: AttachVolumeBodySchema,
      },
      VolumeSchema,
    ),
    async (request) => volumes.attachVolume(contextOf(request), ids(request.params), request.body),
  )

  app.post(
    '/volumes/:volumeId/detach',
    route(
      write,
      {
        operationId: 'detachVolume',
        summary: 'Detach a volume from its instance',
        tags,
        params: VolumeParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await volumes.detachVolume(contextOf(request), ids(request.params))
      return {}
    },
  )

  app.post(
    '/volumes/:volumeId/resize',
    route(
      write,
      {
        operationId: 'resizeVolume',
        summary: 'Grow a volume (its size can only increase)',
        tags,
        params: VolumeParamsSchema,
        body: ResizeVolumeBodySchema,
      },
      VolumeSchema,
    ),
    async (request) => volumes.resizeVolume(contextOf(request), ids(request.params), request.body),
  )
}
