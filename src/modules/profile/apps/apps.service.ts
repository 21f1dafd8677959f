import { notFound } from '../../../common/errors.ts'
import { mapPage, type PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { compileFilter, type FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import type { AuthorizedAppRow } from '../../auth/authorized-apps.table.ts'
import * as repo from './apps.repository.ts'
import type { AuthorizedApp } from './apps.schemas.ts'

/** api-facts 2.2: apps filter (and order) on `label`, `created` and `expiry`. */
export const APP_FILTERS: FilterSpec = {
  label: { column: 'authorized_apps.label', type: 'string' },
  created: { column: 'authorized_apps.created', type: 'timestamp' },
  expiry: { column: 'authorized_apps.expiry', type: 'timestamp', nullable: true },
}

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

async function getRow(db: Db, actor: Actor, id: number): Promise<AuthorizedAppRow> {
  const row = await repo.findApp(db, actor.user.id, id)
  if (row === undefined) throw notFound()
  return row
}

export async function listApps(
  db: Db,
  actor: Actor,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<AuthorizedApp>> {
  const compiled = compileFilter(filter, APP_FILTERS, dialectOf(db))
  const order = [
    ...(compiled.order ? [compiled.order] : []),
    repo.orderById(compiled.order?.direction ?? 'asc'),
  ]
  return mapPage(await repo.listApps(db, actor.user.id, page, compiled.where, order), toAuthorizedApp)
}

export async function getApp(db: Db, actor: Actor, id: number): Promise<AuthorizedApp> {
  return toAuthorizedApp(await getRow(db, actor, id))
}

/**
 * Revokes the app's access: the authorization and all of its tokens go, so each of those tokens
 * is refused with 401 from the next request on, in every process.
 */
export async function revokeApp(db: Db, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await getRow(trx, actor, id)
    await repo.deleteApp(trx, row.id)
  })
}

/** For the login service (OAuth consent): records that a user authorized a client. */
export async function authorizeApp(db: Db, app: repo.NewAuthorizedApp): Promise<AuthorizedAppRow> {
  return inTransaction(db, (trx) => repo.insertApp(trx, app))
}
