import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { type OrderTerm, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import type { AuthorizedAppRow } from '../../auth/authorized-apps.table.ts'

export async function listApps(
  db: Db,
  userId: number,
  page: PageRequest,
  where: RawBuilder<SqlBool> | undefined,
  order: OrderTerm[],
): Promise<PageResult<AuthorizedAppRow>> {
  let query = db.selectFrom('authorized_apps').selectAll().where('authorized_apps.user_id', '=', userId)
  if (where) query = query.where(where)
  return paginate(query, page, order)
}

export async function findApp(db: Db, userId: number, id: number): Promise<AuthorizedAppRow | undefined> {
  return db
    .selectFrom('authorized_apps')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export interface NewAuthorizedApp {
  userId: number
  clientId: string
  label: string
  scopes: string
  website: string
  thumbnailUrl: string
  created: string
  expiry: string | null
}

export async function insertApp(db: Db, app: NewAuthorizedApp): Promise<AuthorizedAppRow> {
  return db
    .insertInto('authorized_apps')
    .values({
      user_id: app.userId,
      client_id: app.clientId,
      label: app.label,
      scopes: app.scopes,
      website: app.website,
      thumbnail_url: app.thumbnailUrl,
      created: app.created,
      expiry: app.expiry,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The app and every token issued to it (the foreign key cascades too; this does not rely on it). */
export async function deleteApp(db: Db, id: number): Promise<void> {
  await db.deleteFrom('tokens').where('authorized_app_id', '=', id).execute()
  await db.deleteFrom('authorized_apps').where('id', '=', id).execute()
}

export const orderById = (direction: 'asc' | 'desc'): OrderTerm => ({
  expression: sql.ref('authorized_apps.id'),
  direction,
})
