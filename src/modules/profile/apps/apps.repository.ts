import { filterFields } from '../../../common/filter-columns.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { Db } from '../../../db/connect.ts'
import { deleteRows, findRow, insertRow, pageOfRows, takeRow } from '../../../db/rows.ts'

/** Apps filter (and order) on `label`, `created` and `expiry` (docs/service-facts.md#filterable-fields). */
export const APP_FILTERS = filterFields(
  { string: ['label'], timestamp: ['created', 'expiry'] },
  { column: (field) => `authorized_apps.${field}`, nullable: ['expiry'] },
)

/** The apps a user authorized, filtered and ordered by X-Filter; the id breaks ties. */
export const listApps = (db: Db, userId: number, list: ListQuery) =>
  pageOfRows(
    db,
    'authorized_apps',
    { user_id: userId },
    { spec: APP_FILTERS, unique: 'authorized_apps.id' },
    list,
  )

export const findApp = (db: Db, userId: number, id: number) =>
  findRow(db, 'authorized_apps', { user_id: userId, id })

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

export const insertApp = (db: Db, app: NewAuthorizedApp) =>
  insertRow(db, 'authorized_apps', {
    user_id: app.userId,
    client_id: app.clientId,
    label: app.label,
    scopes: app.scopes,
    website: app.website,
    thumbnail_url: app.thumbnailUrl,
    created: app.created,
    expiry: app.expiry,
  })

/**
 * The app and every token issued to it (the foreign key cascades too; this does not rely on it).
 * True when this call removed the app (a concurrent revoke may have first).
 */
export async function deleteApp(db: Db, id: number): Promise<boolean> {
  await deleteRows(db, 'tokens', { authorized_app_id: id })
  return takeRow(db, 'authorized_apps', { id })
}
