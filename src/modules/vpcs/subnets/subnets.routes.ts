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

export const subnetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/vpcs/:vpcId/subnets',
    {
      schema: {
        operationId: 'getSubnets',
        summary: "List a VPC's subnets",
        tags,
        params: VpcParamsSchema,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: SubnetPageSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      subnets.listSubnets(
        app.db,
        requireActor(request),
        parseId(request.params.vpcId),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/vpcs/:vpcId/subnets/:subnetId',
    {
      schema: {
        operationId: 'getSubnet',
        summary: 'View a subnet and the instances assigned to it',
        tags,
        params: SubnetParamsSchema,
        response: { 200: SubnetSchema, ...errorResponses },
      },
      config: { auth: read },
    },
    async (request) =>
      subnets.getSubnet(
        app.db,
        requireActor(request),
        parseId(request.params.vpcId),
        parseId(request.params.subnetId),
      ),
  )

  app.post(
    '/vpcs/:vpcId/subnets',
    {
      schema: {
        operationId: 'createSubnet',
        summary: 'Create a subnet in a VPC',
        tags,
        params: VpcParamsSchema,
        body: CreateSubnetBodySchema,
        response: { 200: SubnetSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      subnets.createSubnet(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.vpcId),
        request.body,
      ),
  )

  app.put(
    '/vpcs/:vpcId/subnets/:subnetId',
    {
      schema: {
        operationId: 'updateSubnet',
        summary: "Change a subnet's label",
        tags,
        params: SubnetParamsSchema,
        body: UpdateSubnetBodySchema,
        response: { 200: SubnetSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) =>
      subnets.updateSubnet(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.vpcId),
        parseId(request.params.subnetId),
        request.body,
      ),
  )

  app.delete(
    '/vpcs/:vpcId/subnets/:subnetId',
    {
      schema: {
        operationId: 'deleteSubnet',
        summary: 'Delete a subnet; refused while a config interface uses it',
        tags,
        params: SubnetParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: write },
    },
    async (request) => {
      await subnets.deleteSubnet(
        app.db,
        app.clock,
        requireActor(request),
        parseId(request.params.vpcId),
        parseId(request.params.subnetId),
      )
      return {}
    },
  )
}
