import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../common/ids.ts'
import { categoryAuth, listInput, listRoute, route } from '../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../common/schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  CreateLoadBalancerBodySchema,
  LoadBalancerPageSchema,
  LoadBalancerParamsSchema,
  LoadBalancerSchema,
  UpdateLoadBalancerBodySchema,
} from './loadbalancers.schemas.ts'
import * as loadbalancers from './loadbalancers.service.ts'

const tags = ['Load balancers']
const { read, write } = categoryAuth('nodebalancers')
const ids = (params: { loadbalancerId: string }) => ({ loadbalancerId: parseId(params.loadbalancerId) })

export const loadbalancersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/loadbalancers',
    listRoute(
      read,
      {
        operationId: 'getLoadBalancers',
        summary: 'List load balancers',
        tags,
      },
      LoadBalancerPageSchema,
    ),
    async (request) => loadbalancers.listLoadBalancers(contextOf(request), listInput(request)),
  )

  app.get(
    '/loadbalancers/:loadbalancerId',
    route(
      read,
      {
        operationId: 'getLoadBalancer',
        summary: 'View a load balancer',
        tags,
        params: LoadBalancerParamsSchema,
      },
      LoadBalancerSchema,
    ),
    async (request) => loadbalancers.getLoadBalancer(contextOf(request), ids(request.params)),
  )

  app.post(
    '/loadbalancers',
    route(
      write,
      {
        operationId: 'createLoadBalancer',
        summary: 'Create a load balancer with public IPv4 and IPv6 addresses',
        tags,
        body: CreateLoadBalancerBodySchema,
      },
      LoadBalancerSchema,
    ),
    async (request) => loadbalancers.createLoadBalancer(contextOf(request), request.body),
  )

  app.put(
    '/loadbalancers/:loadbalancerId',
    route(
      write,
      {
        operationId: 'updateLoadBalancer',
        summary: "Change a load balancer's label, connection throttle or tags",
        tags,
        params: LoadBalancerParamsSchema,
        body: UpdateLoadBalancerBodySchema,
      },
      LoadBalancerSchema,
    ),
    async (request) =>
      loadbalancers.updateLoadBalancer(contextOf(request), ids(request.params), request.body),
  )

  app.delete(
    '/loadbalancers/:loadbalancerId',
    route(
      write,
      {
        operationId: 'deleteLoadBalancer',
        summary: 'Delete a load balancer',
        tags,
        params: LoadBalancerParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await loadbalancers.deleteLoadBalancer(contextOf(request), ids(request.params))
      return {}
    },
  )
}
