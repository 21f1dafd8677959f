import { Type } from 'typebox'
import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { read, tags, write } from '../compute-routes.ts'
import {
  ConfigParams,
  InterfaceInputSchema,
  InterfaceParams,
  InterfaceSchema,
  OrderInterfacesBodySchema,
  UpdateInterfaceBodySchema,
} from './interfaces.schemas.ts'
import * as interfaces from './interfaces.service.ts'

export const interfacesRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.get('/compute/instances/:instanceId/configs/:configId/interfaces', {
    auth: read,
    operationId: 'getComputeConfigInterfaces',
    summary: "List a config profile's interfaces (a bare array, in eth order)",
    params: ConfigParams,
    response: Type.Array(InterfaceSchema),
    handler: (ctx, request) => interfaces.listInterfaces(ctx, request.ids),
  })

  api.post('/compute/instances/:instanceId/configs/:configId/interfaces/order', {
    auth: write,
    operationId: 'orderComputeConfigInterfaces',
    summary: "Reorder a config profile's interfaces (eth0 first), from its next boot",
    params: ConfigParams,
    body: OrderInterfacesBodySchema,
    handler: (ctx, request) => interfaces.orderInterfaces(ctx, request.ids, request.body),
  })

  api.get('/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId', {
    auth: read,
    operationId: 'getComputeConfigInterface',
    summary: 'View a config interface',
    params: InterfaceParams,
    response: InterfaceSchema,
    handler: (ctx, request) => interfaces.getInterface(ctx, request.ids),
  })

  api.post('/compute/instances/:instanceId/configs/:configId/interfaces', {
    auth: write,
    operationId: 'addComputeConfigInterface',
    summary: 'Append an interface to a config profile (a vpc interface attaches a subnet)',
    params: ConfigParams,
    body: InterfaceInputSchema,
    response: InterfaceSchema,
    handler: (ctx, request) => interfaces.addInterface(ctx, request.ids, request.body),
  })

  api.put('/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId', {
    auth: write,
    operationId: 'updateComputeConfigInterface',
    summary: "Change an interface's primary flag, VPC addresses or routed ranges",
    params: InterfaceParams,
    body: UpdateInterfaceBodySchema,
    response: InterfaceSchema,
    handler: (ctx, request) => interfaces.updateInterface(ctx, request.ids, request.body),
  })

  api.delete('/compute/instances/:instanceId/configs/:configId/interfaces/:interfaceId', {
    auth: write,
    operationId: 'deleteComputeConfigInterface',
    summary: 'Delete an inactive interface',
    params: InterfaceParams,
    handler: (ctx, request) => interfaces.deleteInterface(ctx, request.ids),
  })
})
