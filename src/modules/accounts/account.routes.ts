import { categoryAuth } from '../../common/route-schemas.ts'
import { routeModule } from '../../common/route-table.ts'
import { contextOf } from '../../plugins/request-context.ts'
import { AccountSchema, TransferSchema, UpdateAccountBodySchema } from './account.schemas.ts'
import * as account from './account.service.ts'
import type { TransferQuotas } from './transfer-quotas.ts'

const { read, write } = categoryAuth('account')

export interface AccountRoutesOptions {
  /** The account's transfer pool by region (the compute domain, wired in src/routes.ts). */
  transfer: TransferQuotas
}

export const accountRoutes = routeModule(
  { tags: ['Account'], context: contextOf },
  (api, _app, options: AccountRoutesOptions) => {
    api.get('/account', {
      auth: read,
      operationId: 'getAccount',
      summary: "View the account's contact and billing information",
      response: AccountSchema,
      handler: (ctx) => account.getAccount(ctx),
    })

    api.put('/account', {
      auth: write,
      operationId: 'updateAccount',
      summary: "Change the account's contact information",
      body: UpdateAccountBodySchema,
      response: AccountSchema,
      handler: (ctx, request) => account.updateAccount(ctx, request.body),
    })

    api.get('/account/transfer', {
      auth: read,
      operationId: 'getAccountTransfer',
      summary: "View the month's network transfer pool and its use",
      response: TransferSchema,
      handler: (ctx) => account.getTransfer(ctx, options.transfer),
    })
  },
)
