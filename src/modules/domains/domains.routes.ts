import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../common/ids.ts'
import { categoryAuth, listInput, listRoute, route } from '../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../common/schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  CreateDomainBodySchema,
  DomainPageSchema,
  DomainParamsSchema,
  DomainSchema,
  UpdateDomainBodySchema,
} from './domains.schemas.ts'
import * as domains from './domains.service.ts'

const tags = ['Domains']
const { read, write } = categoryAuth('domains')
const ids = (params: { domainId: string }) => ({ domainId: parseId(params.domainId) })

export const domainsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/domains',
    listRoute(read, { operationId: 'getDomains', summary: 'List domains', tags }, DomainPageSchema),
    async (request) => domains.listDomains(contextOf(request), listInput(request)),
  )

  app.get(
    '/domains/:domainId',
    route(
      read,
      { operationId: 'getDomain', summary: 'View a domain', tags, params: DomainParamsSchema },
      DomainSchema,
    ),
    async (request) => domains.getDomain(contextOf(request), ids(request.params)),
  )

  app.post(
    '/domains',
    route(
      write,
      {
        operationId: 'createDomain',
        summary: 'Create a primary (master) or secondary (slave) domain',
        tags,
        body: CreateDomainBodySchema,
      },
      DomainSchema,
    ),
    async (request) => domains.createDomain(contextOf(request), request.body),
  )

  app.put(
    '/domains/:domainId',
    route(
      write,
      {
        operationId: 'updateDomain',
        summary: 'Change a domain',
        tags,
        params: DomainParamsSchema,
        body: UpdateDomainBodySchema,
      },
      DomainSchema,
    ),
    async (request) => domains.updateDomain(contextOf(request), ids(request.params), request.body),
  )

  app.delete(
    '/domains/:domainId',
    route(
      write,
      {
        operationId: 'deleteDomain',
        summary: 'Delete a domain and its records',
        tags,
        params: DomainParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await domains.deleteDomain(contextOf(request), ids(request.params))
      return {}
    },
  )
}
