import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { foundOrNotFound, notFound } from '../../../common/errors.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { AuthorizedAppRow } from '../../auth/authorized-apps.table.ts'
import * as repo from './apps.repository.ts'
import type { AuthorizedApp } from './apps.schemas.ts'

export function toAuthorizedApp(row: AuthorizedAppRow): AuthorizedApp {
  return {
    id: row.id,
    label: row.label,
    thumbnail_url: row.thumbnail_url,
    scopes: row.scopes,
    created: row.created,
    expiry: row.expiry,
    website: row.website,
  }
}

/** An app the caller authorized; anyone else's is not found. */
async function accessApp(ctx: RequestContext, { appId }: { appId: number }): Promise<AuthorizedAppRow> {
  return foundOrNotFound(await repo.findApp(ctx.db, ctx.actor.user.id, appId))
}

export async function listApps(ctx: RequestContext, query: ListQuery): Promise<PageResult<AuthorizedApp>> {
  const rows = await repo.listApps(ctx.db, ctx.actor.user.id, query)
  return mapPage(rows, toAuthorizedApp)
}

export async function getApp(ctx: RequestContext, ids: { appId: number }): Promise<AuthorizedApp> {
  return toAuthorizedApp(await accessApp(ctx, ids))
}

/**
 * Revokes the app's access: the authorization and all of its tokens go, so each of those tokens
 * is refused with 401 from the next request on, in every process.
 */
export async function revokeApp(ctx: RequestContext, ids: { appId: number }): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessApp(tx, ids)
    if (!(await repo.deleteApp(tx.db, row.id))) throw notFound()
  })
}

/** For the login service (OAuth consent): records that a user authorized a client. */
export async function authorizeApp(db: Db, app: repo.NewAuthorizedApp): Promise<AuthorizedAppRow> {
  return inTransaction(db, (trx) => repo.insertApp(trx, app))
}
