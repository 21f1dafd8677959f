import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { configIds, instanceIds, read, tags, write } from '../compute-routes.ts'
import { InstanceParamsSchema } from '../instances/instances.schemas.ts'
import { ConfigParamsSchema } from '../interfaces/interfaces.schemas.ts'
import {
  ConfigPageSchema,
  ConfigSchema,
  CreateConfigBodySchema,
  UpdateConfigBodySchema,
} from './configs.schemas.ts'
import * as configs from './configs.service.ts'

export const configsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/instances/:instanceId/configs',
    listRoute(
      read,
      {
        operationId: 'getComputeConfigs',
        summary: "List an instance's config profiles",
        tags,
        params: InstanceParamsSchema,
      },
      ConfigPageSchema,
    ),
    async (request) =>
      configs.listConfigs(contextOf(request), instanceIds(request.params), listInput(request)),
  )

  app.get(
    '/compute/instances/:instanceId/configs/:configId',
    route(
      read,
      { operationId: 'getComputeConfig', summary: 'View a config profile', tags, params: ConfigParamsSchema },
      ConfigSchema,
    ),
    async (request) => configs.getConfig(contextOf(request), configIds(request.params)),
  )

  app.post(
    '/compute/instances/:instanceId/configs',
    route(
      write,
      {
        operationId: 'createComputeConfig',
        summary: 'Add a config profile, optionally with interfaces (attaches VPC subnets)',
        tags,
        params: InstanceParamsSchema,
        body: CreateConfigBodySchema,
      },
      ConfigSchema,
    ),
    async (request) => configs.createConfig(contextOf(request), instanceIds(request.params), request.body),
  )

  app.put(
    '/compute/instances/:instanceId/configs/:configId',
    route(
      write,
      {
        operationId: 'updateComputeConfig',
        summary: 'Change a config profile; `interfaces`, when sent, replaces the whole list',
        tags,
        params: ConfigParamsSchema,
        body: UpdateConfigBodySchema,
      },
      ConfigSchema,
    ),
    async (request) => configs.updateConfig(contextOf(request), configIds(request.params), request.body),
  )

  app.delete(
    '/compute/instances/:instanceId/configs/:configId',
    route(
      write,
      {
        operationId: 'deleteComputeConfig',
        summary: 'Delete a config profile with its interfaces',
        tags,
        params: ConfigParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await configs.deleteConfig(contextOf(request), configIds(request.params))
      return {}
    },
  )
}
