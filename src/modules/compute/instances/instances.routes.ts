import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { parseId } from '../../../common/ids.ts'
import { parsePageQuery } from '../../../common/pagination.ts'
import {
  EmptyObjectSchema,
  errorResponses,
  FilterHeadersSchema,
  PageQuerySchema,
} from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import type { Scope } from '../../auth/scopes.ts'
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

const tags = ['Compute instances']
const read = { scopes: ['computes:read_only'] as Scope[] }
const write = { scopes: ['computes:read_write'] as Scope[] }

/** Boot and reboot take an optional body: none at all counts as `{}`. */
const noBodyIsEmpty = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {}
}

export const instancesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/instances',
    {
      schema: {
        operationId: 'getComputeInstances',
        summary: 'List compute instances',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: InstancePageSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      instances.listInstances(
        app.db,
        requireActor(request),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/compute/instances/:instanceId',
    {
      schema: {
        operationId: 'getComputeInstance',
        summary: 'View a compute instance',
        tags,
        params: InstanceParamsSchema,
        response: { 200: InstanceSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      instances.getInstance(app.db, requireActor(request), parseId(request.params.instanceId)),
  )

  app.post(
    '/compute/instances',
    {
      schema: {
        operationId: 'createComputeInstance',
        summary: 'Create an instance; with an image it is deployed and booted in the same request',
        tags,
        body: CreateInstanceBodySchema,
        response: { 200: InstanceSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => instances.createInstance(app.db, app.clock, requireActor(request), request.body),
  )

  app.put(
    '/compute/instances/:instanceId',
    {
      schema: {
        operationId: 'updateComputeInstance',
        summary: "Change an instance's label, group, tags, watchdog or alerts",
        tags,
        params: InstanceParamsSchema,
        body: UpdateInstanceBodySchema,
        response: { 200: InstanceSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      instances.updateInstance(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        request.body,
      ),
  )

  app.delete(
    '/compute/instances/:instanceId',
    {
      schema: {
        operationId: 'deleteComputeInstance',
        summary: 'Delete an instance with its disks, config profiles and interfaces',
        tags,
        params: InstanceParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => {
      await instances.deleteInstance(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
      )
      return {}
    },
  )

  app.post(
    '/compute/instances/:instanceId/boot',
    {
      schema: {
        operationId: 'bootComputeInstance',
        summary: "Boot an instance (the booted profile's interfaces become active)",
        tags,
        params: InstanceParamsSchema,
        body: PowerBodySchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
      preValidation: noBodyIsEmpty,
    },
    async (request) => {
      await power.bootInstance(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        request.body.config_id,
      )
      return {}
    },
  )

  app.post(
    '/compute/instances/:instanceId/reboot',
    {
      schema: {
        operationId: 'rebootComputeInstance',
        summary: 'Reboot an instance, optionally into another config profile',
        tags,
        params: InstanceParamsSchema,
        body: PowerBodySchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
      preValidation: noBodyIsEmpty,
    },
    async (request) => {
      await power.rebootInstance(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        request.body.config_id,
      )
      return {}
    },
  )

  app.post(
    '/compute/instances/:instanceId/shutdown',
    {
      schema: {
        operationId: 'shutdownComputeInstance',
        summary: 'Shut an instance down (its interfaces become inactive)',
        tags,
        params: InstanceParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => {
      await power.shutdownInstance(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
      )
      return {}
    },
  )
}
