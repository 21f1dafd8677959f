import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { instanceIds, read, tags, write } from '../compute-routes.ts'
import type { DeployImages } from './deploy-image.ts'
import * as power from './instance-power.service.ts'
import {
  CreateInstanceBodySchema,
  InstancePageSchema,
  InstanceParamsSchema,
  InstanceSchema,
  PowerBodySchema,
  UpdateInstanceBodySchema,
} from './instances.schemas.ts'
import * as instances from './instances.service.ts'

/** Boot and reboot take an optional body: none at all counts as `{}`. */
const noBodyIsEmpty = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {}
}

/** A write on the instance in the path with no body, answered with `{}`. */
const instanceAction = <const S extends { operationId: string; summary: string }>(doc: S) =>
  route(write, { ...doc, tags, params: InstanceParamsSchema }, EmptyObjectSchema)

/** Boot or reboot: the instance in the path, an optional power body, answered with `{}`. */
const powerAction = <const S extends { operationId: string; summary: string }>(doc: S) => ({
  ...route(write, { ...doc, tags, params: InstanceParamsSchema, body: PowerBodySchema }, EmptyObjectSchema),
  preValidation: noBodyIsEmpty,
})

export interface InstancesRoutesOptions {
  /** Where instance create finds the image to deploy (the images domain, wired in src/routes.ts). */
  images: DeployImages
}

export const instancesRoutes: FastifyPluginAsyncTypebox<InstancesRoutesOptions> = async (app, options) => {
  app.get(
    '/compute/instances',
    listRoute(
      read,
      { operationId: 'getComputeInstances', summary: 'List compute instances', tags },
      InstancePageSchema,
    ),
    async (request) => instances.listInstances(contextOf(request), listInput(request)),
  )

  app.get(
    '/compute/instances/:instanceId',
    route(
      read,
      {
        operationId: 'getComputeInstance',
        summary: 'View a compute instance',
        tags,
        params: InstanceParamsSchema,
      },
      InstanceSchema,
    ),
    async (request) => instances.getInstance(contextOf(request), instanceIds(request.params)),
  )

  app.post(
    '/compute/instances',
    route(
      write,
      {
        operationId: 'createComputeInstance',
        summary: 'Create an instance; with an image it is deployed and booted in the same request',
        tags,
        body: CreateInstanceBodySchema,
      },
      InstanceSchema,
    ),
    async (request) =>
      instances.createInstance(
        contextOf(request),
        request.body,
        options.images,
        app.vocabulary.defaultInstanceLabelPrefix,
      ),
  )

  app.put(
    '/compute/instances/:instanceId',
    route(
      write,
      {
        operationId: 'updateComputeInstance',
        summary: "Change an instance's label, group, tags, watchdog or alerts",
        tags,
        params: InstanceParamsSchema,
        body: UpdateInstanceBodySchema,
      },
      InstanceSchema,
    ),
    async (request) =>
      instances.updateInstance(contextOf(request), instanceIds(request.params), request.body),
  )

  app.delete(
    '/compute/instances/:instanceId',
    instanceAction({
      operationId: 'deleteComputeInstance',
      summary: 'Delete an instance with its disks, config profiles and interfaces',
    }),
    async (request) => {
      await instances.deleteInstance(contextOf(request), instanceIds(request.params))
      return {}
    },
  )

  app.post(
    '/compute/instances/:instanceId/boot',
    powerAction({
      operationId: 'bootComputeInstance',
      summary: "Boot an instance (the booted profile's interfaces become active)",
    }),
    async (request) => {
      await power.bootInstance(contextOf(request), instanceIds(request.params), request.body)
      return {}
    },
  )

  app.post(
    '/compute/instances/:instanceId/reboot',
    powerAction({
      operationId: 'rebootComputeInstance',
      summary: 'Reboot an instance, optionally into another config profile',
    }),
    async (request) => {
      await power.rebootInstance(contextOf(request), instanceIds(request.params), request.body)
      return {}
    },
  )

  app.post(
    '/compute/instances/:instanceId/shutdown',
    instanceAction({
      operationId: 'shutdownComputeInstance',
      summary: 'Shut an instance down (its interfaces become inactive)',
    }),
    async (request) => {
      await power.shutdownInstance(contextOf(request), instanceIds(request.params))
      return {}
    },
  )
}
