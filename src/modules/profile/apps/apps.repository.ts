import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import type { AuthorizedAppRow } from '../../auth/authorized-apps.table.ts'

/** Apps filter (and order) on `label`, `created` and `expiry` (docs/service-facts.md#filterable-fields). */
export const APP_FILTERS: FilterSpec = {
  label: { column: 'authorized_apps.label', type: 'string' },
  created: { column: 'authorized_apps.created', type: 'timestamp' },
  expiry: { column: 'authorized_apps.expiry', type: 'timestamp', nullable: true },
}

/** The apps a user authorized, filtered and ordered by X-Filter; the id breaks ties. */
export async function listApps(
  db: Db,
  userId: number,
  list: ListQuery,
): Promise<PageResult<AuthorizedAppRow>> {
  return pageOfFilteredList(
    db,
    db.selectFrom('authorized_apps').selectAll().where('authorized_apps.user_id', '=', userId),
    { spec: APP_FILTERS, unique: 'authorized_apps.id' },
    list,
  )
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
