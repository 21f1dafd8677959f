import type { RequestContext } from '../../common/context.ts'

/**
 * Where the account's transfer pool comes from: each instance adds its type's monthly `transfer`
 * (GB) to the pool of its region. The compute domain implements it and `src/routes.ts` hands it
 * to the account routes, since compute already depends on accounts.
 */
export interface TransferQuotas {
  byRegion(ctx: RequestContext): Promise<Array<{ region: string; quota: number }>>
}
