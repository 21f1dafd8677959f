import { pageOfFilteredList } from '../../common/filtered-list.ts'
import type { ListQuery } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import type { OAuthClientRow } from './oauth-clients.table.ts'

/** Filterable client fields of the real API: `label` and `public`. */
export const OAUTH_CLIENT_FILTERS: FilterSpec = {
  label: { column: 'oauth_clients.label', type: 'string' },
  public: { column: 'oauth_clients.public', type: 'boolean' },
}

export async function listAccountClients(
  db: Db,
  accountId: number,
  list: ListQuery,
): Promise<PageResult<OAuthClientRow>> {
  const query = db.selectFrom('oauth_clients').selectAll().where('account_id', '=', accountId)
  const unique = ['oauth_clients.created', 'oauth_clients.id']
  return pageOfFilteredList(db, query, { spec: OAUTH_CLIENT_FILTERS, unique }, list)
}

export async function findAccountClient(
  db: Db,
  accountId: number,
  id: string,
): Promise<OAuthClientRow | undefined> {
  return db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** Any account's client: the login pages serve every account's users. */
export async function findClient(db: Db, id: string): Promise<OAuthClientRow | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function insertClient(db: Db, row: OAuthClientRow): Promise<OAuthClientRow> {
  return db.insertInto('oauth_clients').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateClient(
  db: Db,
  id: string,
  values: Partial<Pick<OAuthClientRow, 'label' | 'redirect_uri' | 'public' | 'secret_hash'>>,
): Promise<OAuthClientRow> {
  return db
    .updateTable('oauth_clients')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * The client, every app users authorized for it and those apps' tokens: its tokens stop working
 * on the next request. Apps name their client by id without a foreign key, so they go here.
 */
export async function deleteClient(db: Db, id: string): Promise<void> {
  const apps = db.selectFrom('authorized_apps').select('id').where('client_id', '=', id)
  await db.deleteFrom('tokens').where('authorized_app_id', 'in', apps).execute()
  await db.deleteFrom('authorized_apps').where('client_id', '=', id).execute()
  await db.deleteFrom('oauth_clients').where('id', '=', id).execute()
}
