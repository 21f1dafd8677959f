import { categoryAuth } from '../../common/route-schemas.ts'
import { routeModule } from '../../common/route-table.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  CreateLoadBalancerBodySchema,
  LoadBalancerPageSchema,
  LoadBalancerParams,
  LoadBalancerSchema,
  UpdateLoadBalancerBodySchema,
} from './loadbalancers.schemas.ts'
import * as loadbalancers from './loadbalancers.service.ts'

const { read, write } = categoryAuth('nodebalancers')

export const loadbalancersRoutes = routeModule({ tags: ['Load balancers'], context: contextOf }, (api) => {
  api.getList('/loadbalancers', {
    auth: read,
    operationId: 'getLoadBalancers',
    summary: 'List load balancers',
    response: LoadBalancerPageSchema,
    handler: (ctx, request) => loadbalancers.listLoadBalancers(ctx, request.list),
  })

  api.get('/loadbalancers/:loadbalancerId', {
    auth: read,
    operationId: 'getLoadBalancer',
    summary: 'View a load balancer',
    params: LoadBalancerParams,
    response: LoadBalancerSchema,
    handler: (ctx, request) => loadbalancers.getLoadBalancer(ctx, request.ids),
  })

  api.post('/loadbalancers', {
    auth: write,
    operationId: 'createLoadBalancer',
    summary: 'Create a load balancer with public IPv4 and IPv6 addresses',
    body: CreateLoadBalancerBodySchema,
    response: LoadBalancerSchema,
    handler: (ctx, request) => loadbalancers.createLoadBalancer(ctx, request.body),
  })

  api.put('/loadbalancers/:loadbalancerId', {
    auth: write,
    operationId: 'updateLoadBalancer',
    summary: "Change a load balancer's label, connection throttle or tags",
    params: LoadBalancerParams,
    body: UpdateLoadBalancerBodySchema,
    response: LoadBalancerSchema,
    handler: (ctx, request) => loadbalancers.updateLoadBalancer(ctx, request.ids, request.body),
  })

  api.delete('/loadbalancers/:loadbalancerId', {
    auth: write,
    operationId: 'deleteLoadBalancer',
    summary: 'Delete a load balancer',
    params: LoadBalancerParams,
    handler: (ctx, request) => loadbalancers.deleteLoadBalancer(ctx, request.ids),
  })
})
