import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../common/ids.ts'
import { parsePageQuery } from '../../common/pagination.ts'
import {
  EmptyObjectSchema,
  errorResponses,
  FilterHeadersSchema,
  PageQuerySchema,
} from '../../common/schemas.ts'
import { requireActor } from '../../plugins/auth.ts'
import type { Scope } from '../auth/scopes.ts'
import {
  CreateVpcBodySchema,
  UpdateVpcBodySchema,
  VpcPageSchema,
  VpcParamsSchema,
  VpcSchema,
} from './vpcs.schemas.ts'
import * as vpcs from './vpcs.service.ts'

const tags = ['VPCs']
/** VPC reads need any valid token (Decisions 8); writes need `vpc:read_write`. */
const read = {}
const write = { scopes: ['vpc:read_write'] as Scope[] }
const JSON_TYPE = 'application/json; charset=utf-8'

export const vpcsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/vpcs',
    {
      schema: {
        operationId: 'getVPCs',
        summary: 'List VPCs',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: VpcPageSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request, reply) => {
      const page = await vpcs.listVpcsJson(
        app.db,
        requireActor(request),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      )
      // Already JSON (rendered by the database), so it is sent as it is; the schema documents it.
      reply.type(JSON_TYPE)
      return page
    },
  )

  app.get(
    '/vpcs/:vpcId',
    {
      schema: {
        operationId: 'getVPC',
        summary: 'View a VPC with its subnets',
        tags,
        params: VpcParamsSchema,
        response: { 200: VpcSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request, reply) => {
      const vpc = await vpcs.getVpcJson(app.db, requireActor(request), parseId(request.params.vpcId))
      reply.type(JSON_TYPE)
      return vpc
    },
  )

  app.post(
    '/vpcs',
    {
      schema: {
        operationId: 'createVPC',
        summary: 'Create a VPC, optionally with subnets (all or nothing)',
        tags,
        body: CreateVpcBodySchema,
        response: { 200: VpcSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => vpcs.createVpc(app.db, app.clock, requireActor(request), request.body),
  )

  app.put(
    '/vpcs/:vpcId',
    {
      schema: {
        operationId: 'updateVPC',
        summary: "Change a VPC's label or description",
        tags,
        params: VpcParamsSchema,
        body: UpdateVpcBodySchema,
        response: { 200: VpcSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      vpcs.updateVpc(app.db, app.clock, requireActor(request), parseId(request.params.vpcId), request.body),
  )

  app.delete(
    '/vpcs/:vpcId',
    {
      schema: {
        operationId: 'deleteVPC',
        summary: 'Delete a VPC and its subnets; refused, deleting nothing, while a subnet is in use',
        tags,
        params: VpcParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => {
      await vpcs.deleteVpc(app.db, app.clock, requireActor(request), parseId(request.params.vpcId))
      return {}
    },
  )
}
