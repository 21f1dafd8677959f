import { filterFields } from '../../common/filter-columns.ts'
import type { ListQuery } from '../../common/pagination.ts'
import type { Db } from '../../db/connect.ts'
import { deleteRows, findRow, insertRow, pageOfRows, type RowLock, updateRow } from '../../db/rows.ts'
import type { OAuthClientRow } from './oauth-clients.table.ts'

/** Filterable client fields of the real API: `label` and `public`. */
export const OAUTH_CLIENT_FILTERS = filterFields(
  { string: ['label'], boolean: ['public'] },
  { column: (field) => `oauth_clients.${field}` },
)

export function listAccountClients(db: Db, accountId: number, list: ListQuery) {
  const unique = ['oauth_clients.created', 'oauth_clients.id']
  return pageOfRows(
    db,
    'oauth_clients',
    { account_id: accountId },
    { spec: OAUTH_CLIENT_FILTERS, unique },
    list,
  )
}

export const findAccountClient = (db: Db, accountId: number, id: string, options?: RowLock) =>
  findRow(db, 'oauth_clients', { account_id: accountId, id }, options)

/** Any account's client: the login pages serve every account's users. */
export const findClient = (db: Db, id: string) => findRow(db, 'oauth_clients', { id })

export const insertClient = (db: Db, row: OAuthClientRow) => insertRow(db, 'oauth_clients', row)

/** The fields a client's owner may change. */
type ClientChanges = Partial<Pick<OAuthClientRow, 'label' | 'redirect_uri' | 'public' | 'secret_hash'>>

export const updateClient = (db: Db, id: string, values: ClientChanges) =>
  updateRow(db, 'oauth_clients', { id }, values)

/**
 * The client, every app users authorized for it and those apps' tokens: its tokens stop working
 * on the next request. Apps name their client by id without a foreign key, so they go here.
 */
export async function deleteClient(db: Db, id: string): Promise<void> {
  const apps = db.selectFrom('authorized_apps').select('id').where('client_id', '=', id)
  await db.deleteFrom('tokens').where('authorized_app_id', 'in', apps).execute()
  await deleteRows(db, 'authorized_apps', { client_id: id })
  await deleteRows(db, 'oauth_clients', { id })
}
