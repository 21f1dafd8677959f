import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../common/ids.ts'
import { sendRenderedJson } from '../../common/rendered-json.ts'
import { listInput, listRoute, route } from '../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../common/schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
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
/** VPC reads need any valid token (docs/decisions.md#vpc-reads); writes need `vpc:read_write`. */
const read = {}
const write = { scopes: ['vpc:read_write'] as Scope[] }

export const vpcsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/vpcs',
    listRoute(read, { operationId: 'getVPCs', summary: 'List VPCs', tags }, VpcPageSchema),
    async (request, reply) => {
      const page = await vpcs.listVpcsJson(contextOf(request), listInput(request))
      return sendRenderedJson(reply, page)
    },
  )

  app.get(
    '/vpcs/:vpcId',
    route(
      read,
      { operationId: 'getVPC', summary: 'View a VPC with its subnets', tags, params: VpcParamsSchema },
      VpcSchema,
    ),
    async (request, reply) => {
      const vpc = await vpcs.getVpcJson(contextOf(request), { vpcId: parseId(request.params.vpcId) })
      return sendRenderedJson(reply, vpc)
    },
  )

  app.post(
    '/vpcs',
    route(
      write,
      {
        operationId: 'createVPC',
        summary: 'Create a VPC, optionally with subnets (all or nothing)',
        tags,
        body: CreateVpcBodySchema,
      },
      VpcSchema,
    ),
    async (request) => vpcs.createVpc(contextOf(request), request.body),
  )

  app.put(
    '/vpcs/:vpcId',
    route(
      write,
      {
        operationId: 'updateVPC',
        summary: "Change a VPC's label or description",
        tags,
        params: VpcParamsSchema,
        body: UpdateVpcBodySchema,
      },
      VpcSchema,
    ),
    async (request) =>
      vpcs.updateVpc(contextOf(request), { vpcId: parseId(request.params.vpcId) }, request.body),
  )

  app.delete(
    '/vpcs/:vpcId',
    route(
      write,
      {
        operationId: 'deleteVPC',
        summary: 'Delete a VPC and its subnets; refused, deleting nothing, while a subnet is in use',
        tags,
        params: VpcParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await vpcs.deleteVpc(contextOf(request), { vpcId: parseId(request.params.vpcId) })
      return {}
    },
  )
}
