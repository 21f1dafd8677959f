import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import type { Scope } from '../../auth/scopes.ts'
import { VpcParams } from '../vpcs.schemas.ts'
import {
  CreateSubnetBodySchema,
  SubnetPageSchema,
  SubnetParams,
  SubnetSchema,
  UpdateSubnetBodySchema,
} from './subnets.schemas.ts'
import * as subnets from './subnets.service.ts'

const read = {}
const write = { scopes: ['vpc:read_write'] as Scope[] }

export const subnetsRoutes = routeModule({ tags: ['VPCs'], context: contextOf }, (api) => {
  api.getList('/vpcs/:vpcId/subnets', {
    auth: read,
    operationId: 'getSubnets',
    summary: "List a VPC's subnets",
    params: VpcParams,
    response: SubnetPageSchema,
    handler: (ctx, request) => subnets.listSubnets(ctx, request.ids, request.list),
  })

  api.get('/vpcs/:vpcId/subnets/:subnetId', {
    auth: read,
    operationId: 'getSubnet',
    summary: 'View a subnet and the instances assigned to it',
    params: SubnetParams,
    response: SubnetSchema,
    handler: (ctx, request) => subnets.getSubnet(ctx, request.ids),
  })

  api.post('/vpcs/:vpcId/subnets', {
    auth: write,
    operationId: 'createSubnet',
    summary: 'Create a subnet in a VPC',
    params: VpcParams,
    body: CreateSubnetBodySchema,
    response: SubnetSchema,
    handler: (ctx, request) => subnets.createSubnet(ctx, request.ids, request.body),
  })

  api.put('/vpcs/:vpcId/subnets/:subnetId', {
    auth: write,
    operationId: 'updateSubnet',
    summary: "Change a subnet's label",
    params: SubnetParams,
    body: UpdateSubnetBodySchema,
    response: SubnetSchema,
    handler: (ctx, request) => subnets.updateSubnet(ctx, request.ids, request.body),
  })

  api.delete('/vpcs/:vpcId/subnets/:subnetId', {
    auth: write,
    operationId: 'deleteSubnet',
    summary: 'Delete a subnet; refused while a config interface uses it',
    params: SubnetParams,
    handler: (ctx, request) => subnets.deleteSubnet(ctx, request.ids),
  })
})
