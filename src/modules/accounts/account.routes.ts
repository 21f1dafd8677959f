import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { categoryAuth, route } from '../../common/route-schemas.ts'
import { contextOf } from '../../plugins/request-context.ts'
import { AccountSchema, TransferSchema, UpdateAccountBodySchema } from './account.schemas.ts'
import * as account from './account.service.ts'
import type { TransferQuotas } from './transfer-quotas.ts'

const tags = ['Account']
const { read, write } = categoryAuth('account')

export interface AccountRoutesOptions {
  /** The account's transfer pool by region (the compute domain, wired in src/routes.ts). */
  transfer: TransferQuotas
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, options) => {
  app.get(
    '/account',
    route(
      read,
      { operationId: 'getAccount', summary: "View the account's contact and billing information", tags },
      AccountSchema,
    ),
    async (request) => account.getAccount(contextOf(request)),
  )

  app.put(
    '/account',
    route(
      write,
      {
        operationId: 'updateAccount',
        summary: "Change the account's contact information",
        tags,
        body: UpdateAccountBodySchema,
      },
      AccountSchema,
    ),
    async (request) => account.updateAccount(contextOf(request), request.body),
  )

  app.get(
    '/account/transfer',
    route(
      read,
      {
        operationId: 'getAccountTransfer',
        summary: "View the month's network transfer pool and its use",
        tags,
      },
      TransferSchema,
    ),
    async (request) => account.getTransfer(contextOf(request), options.transfer),
  )
}
