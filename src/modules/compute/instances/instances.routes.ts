import type { FastifyRequest } from 'fastify'
import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { read, tags, write } from '../compute-routes.ts'
import type { DeployImages } from './deploy-image.ts'
import * as power from './instance-power.service.ts'
import {
  CreateInstanceBodySchema,
  InstancePageSchema,
  InstanceParams,
  InstanceSchema,
  PowerBodySchema,
  UpdateInstanceBodySchema,
} from './instances.schemas.ts'
import * as instances from './instances.service.ts'

/** Boot and reboot take an optional body: none at all counts as `{}`. */
const noBodyIsEmpty = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {}
}

export interface InstancesRoutesOptions {
  /** Where instance create finds the image to deploy (the images domain, wired in src/routes.ts). */
  images: DeployImages
}

export const instancesRoutes = routeModule(
  { tags, context: contextOf },
  (api, app, options: InstancesRoutesOptions) => {
    api.getList('/compute/instances', {
      auth: read,
      operationId: 'getComputeInstances',
      summary: 'List compute instances',
      response: InstancePageSchema,
      handler: (ctx, request) => instances.listInstances(ctx, request.list),
    })

    api.get('/compute/instances/:instanceId', {
      auth: read,
      operationId: 'getComputeInstance',
      summary: 'View a compute instance',
      params: InstanceParams,
      response: InstanceSchema,
      handler: (ctx, request) => instances.getInstance(ctx, request.ids),
    })

    api.post('/compute/instances', {
      auth: write,
      operationId: 'createComputeInstance',
      summary: 'Create an instance; with an image it is deployed and booted in the same request',
      body: CreateInstanceBodySchema,
      response: InstanceSchema,
      handler: (ctx, request) =>
        instances.createInstance(
          ctx,
          request.body,
          options.images,
          app.vocabulary.defaultInstanceLabelPrefix,
        ),
    })

    api.put('/compute/instances/:instanceId', {
      auth: write,
      operationId: 'updateComputeInstance',
      summary: "Change an instance's label, group, tags, watchdog or alerts",
      params: InstanceParams,
      body: UpdateInstanceBodySchema,
      response: InstanceSchema,
      handler: (ctx, request) => instances.updateInstance(ctx, request.ids, request.body),
    })

    api.delete('/compute/instances/:instanceId', {
      auth: write,
      operationId: 'deleteComputeInstance',
      summary: 'Delete an instance with its disks, config profiles and interfaces',
      params: InstanceParams,
      handler: (ctx, request) => instances.deleteInstance(ctx, request.ids),
    })

    api.post('/compute/instances/:instanceId/boot', {
      auth: write,
      operationId: 'bootComputeInstance',
      summary: "Boot an instance (the booted profile's interfaces become active)",
      params: InstanceParams,
      body: PowerBodySchema,
      preValidation: noBodyIsEmpty,
      handler: (ctx, request) => power.bootInstance(ctx, request.ids, request.body),
    })

    api.post('/compute/instances/:instanceId/reboot', {
      auth: write,
      operationId: 'rebootComputeInstance',
      summary: 'Reboot an instance, optionally into another config profile',
      params: InstanceParams,
      body: PowerBodySchema,
      preValidation: noBodyIsEmpty,
      handler: (ctx, request) => power.rebootInstance(ctx, request.ids, request.body),
    })

    api.post('/compute/instances/:instanceId/shutdown', {
      auth: write,
      operationId: 'shutdownComputeInstance',
      summary: 'Shut an instance down (its interfaces become inactive)',
      params: InstanceParams,
      handler: (ctx, request) => power.shutdownInstance(ctx, request.ids),
    })
  },
)
