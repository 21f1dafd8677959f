import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { parseId } from '../../../common/ids.ts'
import { EmptyObjectSchema, errorResponses } from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import type { Scope } from '../../auth/scopes.ts'
import {
  ConfigParamsSchema,
  InterfaceInputSchema,
  InterfaceParamsSchema,
  InterfaceSchema,
  UpdateInterfaceBodySchema,
} from './interfaces.schemas.ts'
import * as interfaces from './interfaces.service.ts'

const tags = ['Compute instances']
const read = { scopes: ['computes:read_only'] as Scope[] }
const write = { scopes: ['computes:read_write'] as Scope[] }

export const interfacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/instances/:instanceId/configs/:configId/interfaces',
    {
      schema: {
        operationId: 'getComputeConfigInterfaces',
        summary: "List a config profile's interfaces (a bare array, in eth order)",
        tags,
        params: ConfigParamsSchema,
        response: { 200: Type.Array(InterfaceSchema), ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      interfaces.listInterfaces(
        app.db,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.configId),
      ),
  )

  app.get(
    '/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId',
    {
      schema: {
        operationId: 'getComputeConfigInterface',
        summary: 'View a config interface',
        tags,
        params: InterfaceParamsSchema,
        response: { 200: InterfaceSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      interfaces.getInterface(
        app.db,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.configId),
        parseId(request.params.interfaceId),
      ),
  )

  app.post(
    '/compute/instances/:instanceId/configs/:configId/interfaces',
    {
      schema: {
        operationId: 'addComputeConfigInterface',
        summary: 'Append an interface to a config profile (a vpc interface attaches a subnet)',
        tags,
        params: ConfigParamsSchema,
        body: InterfaceInputSchema,
        response: { 200: InterfaceSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      interfaces.addInterface(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.configId),
        request.body,
      ),
  )

  app.put(
    '/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId',
    {
      schema: {
        operationId: 'updateComputeConfigInterface',
        summary: "Change an interface's primary flag, VPC addresses or routed ranges",
        tags,
        params: InterfaceParamsSchema,
        body: UpdateInterfaceBodySchema,
        response: { 200: InterfaceSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      interfaces.updateInterface(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.configId),
        parseId(request.params.interfaceId),
        request.body,
      ),
  )

  app.delete(
    '/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId',
    {
      schema: {
        operationId: 'deleteComputeConfigInterface',
        summary: 'Delete an inactive interface',
        tags,
        params: InterfaceParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => {
      await interfaces.deleteInterface(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.configId),
        parseId(request.params.interfaceId),
      )
      return {}
    },
  )
}
