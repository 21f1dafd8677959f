import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { read, tags, write } from '../compute-routes.ts'
import { InstanceParams } from '../instances/instances.schemas.ts'
import { ConfigParams } from '../interfaces/interfaces.schemas.ts'
import {
  ConfigPageSchema,
  ConfigSchema,
  CreateConfigBodySchema,
  UpdateConfigBodySchema,
} from './configs.schemas.ts'
import * as configs from './configs.service.ts'

export const configsRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.getList('/compute/instances/:instanceId/configs', {
    auth: read,
    operationId: 'getComputeConfigs',
    summary: "List an instance's config profiles",
    params: InstanceParams,
    response: ConfigPageSchema,
    handler: (ctx, request) => configs.listConfigs(ctx, request.ids, request.list),
  })

  api.get('/compute/instances/:instanceId/configs/:configId', {
    auth: read,
    operationId: 'getComputeConfig',
    summary: 'View a config profile',
    params: ConfigParams,
    response: ConfigSchema,
    handler: (ctx, request) => configs.getConfig(ctx, request.ids),
  })

  api.post('/compute/instances/:instanceId/configs', {
    auth: write,
    operationId: 'createComputeConfig',
    summary: 'Add a config profile, optionally with interfaces (attaches VPC subnets)',
    params: InstanceParams,
    body: CreateConfigBodySchema,
    response: ConfigSchema,
    handler: (ctx, request) => configs.createConfig(ctx, request.ids, request.body),
  })

  api.put('/compute/instances/:instanceId/configs/:configId', {
    auth: write,
    operationId: 'updateComputeConfig',
    summary: 'Change a config profile; `interfaces`, when sent, replaces the whole list',
    params: ConfigParams,
    body: UpdateConfigBodySchema,
    response: ConfigSchema,
    handler: (ctx, request) => configs.updateConfig(ctx, request.ids, request.body),
  })

  api.delete('/compute/instances/:instanceId/configs/:configId', {
    auth: write,
    operationId: 'deleteComputeConfig',
    summary: 'Delete a config profile with its interfaces',
    params: ConfigParams,
    handler: (ctx, request) => configs.deleteConfig(ctx, request.ids),
  })
})
