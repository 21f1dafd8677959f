import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { parsePageQuery } from '../../../common/pagination.ts'
import { errorResponses, FilterHeadersSchema, PageQuerySchema } from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import type { Scope } from '../../auth/scopes.ts'
import { VpcParamsSchema } from '../vpcs.schemas.ts'
import { VpcIpPageSchema } from './vpc-ips.schemas.ts'
import * as vpcIps from './vpc-ips.service.ts'

const tags = ['VPCs']
const auth = { scopes: ['ips:read_only'] as Scope[] }

/** The account-wide list is served at the document's path and at the real API's (Decisions 6). */
const ACCOUNT_PATHS = [
  ['/networking/vpcs/ips', 'getVPCsIPs'],
  ['/vpcs/ips', 'getVPCsIPsAlias'],
] as const

export const vpcIpsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const [path, operationId] of ACCOUNT_PATHS) {
    app.get(
      path,
      {
        schema: {
          operationId,
          summary: 'List the VPC IP addresses of every VPC of the account',
          tags,
          querystring: PageQuerySchema,
          headers: FilterHeadersSchema,
          response: { 200: VpcIpPageSchema, ...errorResponses },
        },
        config: { auth },
      },
      async (request) =>
        vpcIps.listAccountVpcIps(
          app.db,
          requireActor(request),
          parsePageQuery(request.query),
          request.headers['x-filter'],
        ),
    )
  }

  app.get(
    '/vpcs/:vpcId/ips',
    {
      schema: {
        operationId: 'getVPCIPs',
        summary: 'List the IP addresses of one VPC',
        tags,
        params: VpcParamsSchema,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: VpcIpPageSchema, ...errorResponses },
      },
      config: { auth },
    },
    async (request) =>
      vpcIps.listVpcIpsOfVpc(
        app.db,
        requireActor(request),
        parseId(request.params.vpcId),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )
}
