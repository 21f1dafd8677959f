import { categoryAuth } from '../../../common/route-schemas.ts'
import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import {
  CreateDomainRecordBodySchema,
  DomainRecordPageSchema,
  DomainRecordParams,
  DomainRecordSchema,
  DomainRecordsParams,
  UpdateDomainRecordBodySchema,
} from './records.schemas.ts'
import * as records from './records.service.ts'

const { read, write } = categoryAuth('domains')

export const domainRecordsRoutes = routeModule({ tags: ['Domains'], context: contextOf }, (api) => {
  api.getList('/domains/:domainId/records', {
    auth: read,
    operationId: 'getDomainRecords',
    summary: "List a domain's records",
    params: DomainRecordsParams,
    response: DomainRecordPageSchema,
    handler: (ctx, request) => records.listDomainRecords(ctx, request.ids, request.list),
  })

  api.get('/domains/:domainId/records/:recordId', {
    auth: read,
    operationId: 'getDomainRecord',
    summary: 'View a domain record',
    params: DomainRecordParams,
    response: DomainRecordSchema,
    handler: (ctx, request) => records.getDomainRecord(ctx, request.ids),
  })

  api.post('/domains/:domainId/records', {
    auth: write,
    operationId: 'createDomainRecord',
    summary: 'Add a record to a domain',
    params: DomainRecordsParams,
    body: CreateDomainRecordBodySchema,
    response: DomainRecordSchema,
    handler: (ctx, request) => records.createDomainRecord(ctx, request.ids, request.body),
  })

  api.put('/domains/:domainId/records/:recordId', {
    auth: write,
    operationId: 'updateDomainRecord',
    summary: 'Change a domain record',
    params: DomainRecordParams,
    body: UpdateDomainRecordBodySchema,
    response: DomainRecordSchema,
    handler: (ctx, request) => records.updateDomainRecord(ctx, request.ids, request.body),
  })

  api.delete('/domains/:domainId/records/:recordId', {
    auth: write,
    operationId: 'deleteDomainRecord',
    summary: 'Delete a domain record',
    params: DomainRecordParams,
    handler: (ctx, request) => records.deleteDomainRecord(ctx, request.ids),
  })
})
