import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { categoryAuth, listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import {
  CreateDomainRecordBodySchema,
  DomainRecordPageSchema,
  DomainRecordParamsSchema,
  DomainRecordSchema,
  DomainRecordsParamsSchema,
  UpdateDomainRecordBodySchema,
} from './records.schemas.ts'
import * as records from './records.service.ts'

const tags = ['Domains']
const { read, write } = categoryAuth('domains')
const domainIds = (params: { domainId: string }) => ({ domainId: parseId(params.domainId) })
const recordIds = (params: { domainId: string; recordId: string }) => ({
  domainId: parseId(params.domainId),
  recordId: parseId(params.recordId),
})

export const domainRecordsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/domains/:domainId/records',
    listRoute(
      read,
      {
        operationId: 'getDomainRecords',
        summary: "List a domain's records",
        tags,
        params: DomainRecordsParamsSchema,
      },
      DomainRecordPageSchema,
    ),
    async (request) =>
      records.listDomainRecords(contextOf(request), domainIds(request.params), listInput(request)),
  )

  app.get(
    '/domains/:domainId/records/:recordId',
    route(
      read,
      {
        operationId: 'getDomainRecord',
        summary: 'View a domain record',
        tags,
        params: DomainRecordParamsSchema,
      },
      DomainRecordSchema,
    ),
    async (request) => records.getDomainRecord(contextOf(request), recordIds(request.params)),
  )

  app.post(
    '/domains/:domainId/records',
    route(
      write,
      {
        operationId: 'createDomainRecord',
        summary: 'Add a record to a domain',
        tags,
        params: DomainRecordsParamsSchema,
        body: CreateDomainRecordBodySchema,
      },
      DomainRecordSchema,
    ),
    async (request) =>
      records.createDomainRecord(contextOf(request), domainIds(request.params), request.body),
  )

  app.put(
    '/domains/:domainId/records/:recordId',
    route(
      write,
      {
        operationId: 'updateDomainRecord',
        summary: 'Change a domain record',
        tags,
        params: DomainRecordParamsSchema,
        body: UpdateDomainRecordBodySchema,
      },
      DomainRecordSchema,
    ),
    async (request) =>
      records.updateDomainRecord(contextOf(request), recordIds(request.params), request.body),
  )

  app.delete(
    '/domains/:domainId/records/:recordId',
    route(
      write,
      {
        operationId: 'deleteDomainRecord',
        summary: 'Delete a domain record',
        tags,
        params: DomainRecordParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await records.deleteDomainRecord(contextOf(request), recordIds(request.params))
      return {}
    },
  )
}
