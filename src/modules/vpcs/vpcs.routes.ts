import { sendPage } from '../../common/rendered-page-cache.ts'
import { routeModule } from '../../common/route-table.ts'
import { countersOf } from '../../plugins/db.ts'
import { contextOf } from '../../plugins/request-context.ts'
import type { Scope } from '../auth/scopes.ts'
import {
  CreateVpcBodySchema,
  UpdateVpcBodySchema,
  VpcPageSchema,
  VpcParams,
  VpcSchema,
} from './vpcs.schemas.ts'
import * as vpcs from './vpcs.service.ts'

/** VPC reads need any valid token (docs/decisions.md#vpc-reads); writes need `vpc:read_write`. */
const read = {}
const write = { scopes: ['vpc:read_write'] as Scope[] }

export const vpcsRoutes = routeModule({ tags: ['VPCs'], context: contextOf }, (api) => {
  api.getList('/vpcs', {
    auth: { ...read, confirmedInStatement: true },
    operationId: 'getVPCs',
    summary: 'List VPCs',
    response: VpcPageSchema,
    handler: async (ctx, request, reply) =>
      sendPage(
        reply,
        await vpcs.listVpcsPage(
          ctx,
          request.list,
          () => countersOf(reply.request),
          reply.server.vocabulary.laterFields,
        ),
      ),
  })

  api.get('/vpcs/:vpcId', {
    auth: { ...read, confirmedInStatement: true },
    operationId: 'getVPC',
    summary: 'View a VPC with its subnets',
    params: VpcParams,
    response: VpcSchema,
    handler: async (ctx, request, reply) =>
      sendPage(
        reply,
        await vpcs.getVpcAnswer(
          ctx,
          request.ids,
          () => countersOf(reply.request),
          reply.server.vocabulary.laterFields,
        ),
      ),
  })

  api.post('/vpcs', {
    auth: write,
    operationId: 'createVPC',
    summary: 'Create a VPC, optionally with subnets (all or nothing)',
    body: CreateVpcBodySchema,
    response: VpcSchema,
    handler: (ctx, request) => vpcs.createVpc(ctx, request.body),
  })

  api.put('/vpcs/:vpcId', {
    auth: write,
    operationId: 'updateVPC',
    summary: "Change a VPC's label or description",
    params: VpcParams,
    body: UpdateVpcBodySchema,
    response: VpcSchema,
    handler: (ctx, request) => vpcs.updateVpc(ctx, request.ids, request.body),
  })

  api.delete('/vpcs/:vpcId', {
    auth: write,
    operationId: 'deleteVPC',
    summary: 'Delete a VPC and its subnets; refused, deleting nothing, while a subnet is in use',
    params: VpcParams,
    handler: (ctx, request) => vpcs.deleteVpc(ctx, request.ids),
  })
})
