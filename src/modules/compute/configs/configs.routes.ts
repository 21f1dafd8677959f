import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
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
import { InstanceParamsSchema } from '../instances/instances.schemas.ts'
import { ConfigParamsSchema } from '../interfaces/interfaces.schemas.ts'
import {
  ConfigPageSchema,
  ConfigSchema,
  CreateConfigBodySchema,
  UpdateConfigBodySchema,
} from './configs.schemas.ts'
import * as configs from './configs.service.ts'

const tags = ['Compute instances']
const read = { scopes: ['computes:read_only'] as Scope[] }
const write = { scopes: ['computes:read_write'] as Scope[] }

export const configsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/compute/instances/:instanceId/configs',
    {
      schema: {
        operationId: 'getComputeConfigs',
        summary: "List an instance's config profiles",
        tags,
        params: InstanceParamsSchema,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: ConfigPageSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      configs.listConfigs(
        app.db,
        requireActor(request),
        parseId(request.params.instanceId),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/compute/instances/:instanceId/configs/:configId',
    {
      schema: {
        operationId: 'getComputeConfig',
        summary: 'View a config profile',
        tags,
        params: ConfigParamsSchema,
        response: { 200: ConfigSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      configs.getConfig(
        app.db,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.configId),
      ),
  )

  app.post(
    '/compute/instances/:instanceId/configs',
    {
      schema: {
        operationId: 'createComputeConfig',
        summary: 'Add a config profile, optionally with interfaces (attaches VPC subnets)',
        tags,
        params: InstanceParamsSchema,
        body: CreateConfigBodySchema,
        response: { 200: ConfigSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      configs.createConfig(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        request.body,
      ),
  )

  app.put(
    '/compute/instances/:instanceId/configs/:configId',
    {
      schema: {
        operationId: 'updateComputeConfig',
        summary: 'Change a config profile; `interfaces`, when sent, replaces the whole list',
        tags,
        params: ConfigParamsSchema,
        body: UpdateConfigBodySchema,
        response: { 200: ConfigSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      configs.updateConfig(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.configId),
        request.body,
      ),
  )

  app.delete(
    '/compute/instances/:instanceId/configs/:configId',
    {
      schema: {
        operationId: 'deleteComputeConfig',
        summary: 'Delete a config profile with its interfaces',
        tags,
        params: ConfigParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => {
      await configs.deleteConfig(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.instanceId),
        parseId(request.params.configId),
      )
      return {}
    },
  )
}
