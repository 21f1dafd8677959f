import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import type { Scope } from '../../auth/scopes.ts'
import { VpcParams } from '../vpcs.schemas.ts'
import { VpcIpPageSchema } from './vpc-ips.schemas.ts'
import * as vpcIps from './vpc-ips.service.ts'

const auth = { scopes: ['ips:read_only'] as Scope[] }

/**
 * The account-wide list is served at the API document's path and at the one real clients call
 * (docs/decisions.md#api-roots).
 */
const ACCOUNT_PATHS = [
  ['/networking/vpcs/ips', 'getVPCsIPs'],
  ['/vpcs/ips', 'getVPCsIPsAlias'],
] as const

export const vpcIpsRoutes = routeModule({ tags: ['VPCs'], context: contextOf }, (api) => {
  for (const [path, operationId] of ACCOUNT_PATHS) {
    api.getList(path, {
      auth,
      operationId,
      summary: 'List the VPC IP addresses of every VPC of the account',
      response: VpcIpPageSchema,
      handler: (ctx, request) => vpcIps.listAccountVpcIps(ctx, request.list),
    })
  }

  api.getList('/vpcs/:vpcId/ips', {
    auth,
    operationId: 'getVPCIPs',
    summary: 'List the IP addresses of one VPC',
    params: VpcParams,
    response: VpcIpPageSchema,
    handler: (ctx, request) => vpcIps.listVpcIpsOfVpc(ctx, request.ids, request.list),
  })
})
