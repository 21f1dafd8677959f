import { categoryAuth } from '../../common/route-schemas.ts'
import { routeModule } from '../../common/route-table.ts'
import { contextOf } from '../../plugins/request-context.ts'
import {
  CreateDomainBodySchema,
  DomainPageSchema,
  DomainParams,
  DomainSchema,
  UpdateDomainBodySchema,
} from './domains.schemas.ts'
import * as domains from './domains.service.ts'

const { read, write } = categoryAuth('domains')

export const domainsRoutes = routeModule({ tags: ['Domains'], context: contextOf }, (api) => {
  api.getList('/domains', {
    auth: read,
    operationId: 'getDomains',
    summary: 'List domains',
    response: DomainPageSchema,
    handler: (ctx, request) => domains.listDomains(ctx, request.list),
  })

  api.get('/domains/:domainId', {
    auth: read,
    operationId: 'getDomain',
    summary: 'View a domain',
    params: DomainParams,
    response: DomainSchema,
    handler: (ctx, request) => domains.getDomain(ctx, request.ids),
  })

  api.post('/domains', {
    auth: write,
    operationId: 'createDomain',
    summary: 'Create a primary (master) or secondary (slave) domain',
    body: CreateDomainBodySchema,
    response: DomainSchema,
    handler: (ctx, request) => domains.createDomain(ctx, request.body),
  })

  api.put('/domains/:domainId', {
    auth: write,
    operationId: 'updateDomain',
    summary: 'Change a domain',
    params: DomainParams,
    body: UpdateDomainBodySchema,
    response: DomainSchema,
    handler: (ctx, request) => domains.updateDomain(ctx, request.ids, request.body),
  })

  api.delete('/domains/:domainId', {
    auth: write,
    operationId: 'deleteDomain',
    summary: 'Delete a domain and its records',
    params: DomainParams,
    handler: (ctx, request) => domains.deleteDomain(ctx, request.ids),
  })
})
