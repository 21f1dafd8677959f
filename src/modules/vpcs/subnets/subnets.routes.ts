import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { parsePageQuery } from '../../../common/pagination.ts'
import { listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import type { Scope } from '../../auth/scopes.ts'
import { VpcParamsSchema } from '../vpcs.schemas.ts'
import {
  CreateSubnetBodySchema,
  SubnetPageSchema,
  SubnetParamsSchema,
  SubnetSchema,
  UpdateSubnetBodySchema,
} from './subnets.schemas.ts'
import * as subnets from './subnets.service.ts'

const tags = ['VPCs']
const read = {}
const write = { scopes: ['vpc:read_write'] as Scope[] }

const subnetIds = (params: { vpcId: string; subnetId: string }): subnets.SubnetIds => ({
  vpcId: parseId(params.vpcId),
  subnetId: parseId(params.subnetId),
})

export const subnetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/vpcs/:vpcId/subnets',
    listRoute(
      read,
      { operationId: 'getSubnets', summary: "List a VPC's subnets", tags, params: VpcParamsSchema },
      SubnetPageSchema,
    ),
    async (request) =>
      subnets.listSubnets(
        contextOf(request),
        { vpcId: parseId(request.params.vpcId) },
        { page: parsePageQuery(request.query), filter: request.headers['x-filter'] },
      ),
  )

  app.get(
    '/vpcs/:vpcId/subnets/:subnetId',
    route(
      read,
      {
        operationId: 'getSubnet',
        summary: 'View a subnet and the instances assigned to it',
        tags,
        params: SubnetParamsSchema,
      },
      SubnetSchema,
    ),
    async (request) => subnets.getSubnet(contextOf(request), subnetIds(request.params)),
  )

  app.post(
    '/vpcs/:vpcId/subnets',
    route(
      write,
      {
        operationId: 'createSubnet',
        summary: 'Create a subnet in a VPC',
        tags,
        params: VpcParamsSchema,
        body: CreateSubnetBodySchema,
      },
      SubnetSchema,
    ),
    async (request) =>
      subnets.createSubnet(contextOf(request), { vpcId: parseId(request.params.vpcId) }, request.body),
  )

  app.put(
    '/vpcs/:vpcId/subnets/:subnetId',
    route(
      write,
      {
        operationId: 'updateSubnet',
        summary: "Change a subnet's label",
        tags,
        params: SubnetParamsSchema,
        body: UpdateSubnetBodySchema,
      },
      SubnetSchema,
    ),
    async (request) => subnets.updateSubnet(contextOf(request), subnetIds(request.params), request.body),
  )

  app.delete(
    '/vpcs/:vpcId/subnets/:subnetId',
    route(
      write,
      {
        operationId: 'deleteSubnet',
        summary: 'Delete a subnet; refused while a config interface uses it',
        tags,
        params: SubnetParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await subnets.deleteSubnet(contextOf(request), subnetIds(request.params))
      return {}
    },
  )
}
