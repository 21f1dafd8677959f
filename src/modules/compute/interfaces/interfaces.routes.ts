import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { configIds, interfaceIds, read, tags, write } from '../compute-routes.ts'
import {
  ConfigParamsSchema,
  InterfaceInputSchema,
  InterfaceParamsSchema,
  InterfaceSchema,
  UpdateInterfaceBodySchema,
} from './interfaces.schemas.ts'
import * as interfaces from './interfaces.service.ts'

export const interfacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/instances/:instanceId/configs/:configId/interfaces',
    route(
      read,
      {
        operationId: 'getComputeConfigInterfaces',
        summary: "List a config profile's interfaces (a bare array, in eth order)",
        tags,
        params: ConfigParamsSchema,
      },
      Type.Array(InterfaceSchema),
    ),
    async (request) => interfaces.listInterfaces(contextOf(request), configIds(request.params)),
  )

  app.get(
    '/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId',
    route(
      read,
      {
        operationId: 'getComputeConfigInterface',
        summary: 'View a config interface',
        tags,
        params: InterfaceParamsSchema,
      },
      InterfaceSchema,
    ),
    async (request) => interfaces.getInterface(contextOf(request), interfaceIds(request.params)),
  )

  app.post(
    '/compute/instances/:instanceId/configs/:configId/interfaces',
    route(
      write,
      {
        operationId: 'addComputeConfigInterface',
        summary: 'Append an interface to a config profile (a vpc interface attaches a subnet)',
        tags,
        params: ConfigParamsSchema,
        body: InterfaceInputSchema,
      },
      InterfaceSchema,
    ),
    async (request) => interfaces.addInterface(contextOf(request), configIds(request.params), request.body),
  )

  app.put(
    '/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId',
    route(
      write,
      {
        operationId: 'updateComputeConfigInterface',
        summary: "Change an interface's primary flag, VPC addresses or routed ranges",
        tags,
        params: InterfaceParamsSchema,
        body: UpdateInterfaceBodySchema,
      },
      InterfaceSchema,
    ),
    async (request) =>
      interfaces.updateInterface(contextOf(request), interfaceIds(request.params), request.body),
  )

  app.delete(
    '/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId',
    route(
      write,
      {
        operationId: 'deleteComputeConfigInterface',
        summary: 'Delete an inactive interface',
        tags,
        params: InterfaceParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await interfaces.deleteInterface(contextOf(request), interfaceIds(request.params))
      return {}
    },
  )
}
