import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { listInput, listRoute } from '../../../common/route-schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import type { Scope } from '../../auth/scopes.ts'
import { VpcParamsSchema } from '../vpcs.schemas.ts'
import { VpcIpPageSchema } from './vpc-ips.schemas.ts'
import * as vpcIps from './vpc-ips.service.ts'

const tags = ['VPCs']
const auth = { scopes: ['ips:read_only'] as Scope[] }

/**
 * The account-wide list is served at the API document's path and at the one real clients call
 * (docs/decisions.md#api-roots).
 */
const ACCOUNT_PATHS = [
  ['/networking/vpcs/ips', 'getVPCsIPs'],
  ['/vpcs/ips', 'getVPCsIPsAlias'],
] as const

export const vpcIpsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const [path, operationId] of ACCOUNT_PATHS) {
    app.get(
      path,
      listRoute(
        auth,
        { operationId, summary: 'List the VPC IP addresses of every VPC of the account', tags },
        VpcIpPageSchema,
      ),
      async (request) => vpcIps.listAccountVpcIps(contextOf(request), listInput(request)),
    )
  }

  app.get(
    '/vpcs/:vpcId/ips',
    listRoute(
      auth,
      {
        operationId: 'getVPCIPs',
        summary: 'List the IP addresses of one VPC',
        tags,
        params: VpcParamsSchema,
      },
      VpcIpPageSchema,
    ),
    async (request) =>
      vpcIps.listVpcIpsOfVpc(
        contextOf(request),
        { vpcId: parseId(request.params.vpcId) },
        listInput(request),
      ),
  )
}
