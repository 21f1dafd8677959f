import type { Db } from '../../db/connect.ts'

/** The user (and so the account) a control operation names by username. */
export async function findUserAccount(
  db: Db,
  username: string,
): Promise<{ userId: number; accountId: number } | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'account_id'])
    .where('username', '=', username)
    .executeTakeFirst()
  return row && { userId: row.id, accountId: row.account_id }
}

/** Blob keys of the image data the state refers to (of one account, or all). */
export async function imageBlobKeys(db: Db, accountId?: number): Promise<Set<string>> {
  let query = db.selectFrom('images').select('blob_key').where('blob_key', 'is not', null)
  if (accountId !== undefined) query = query.where('account_id', '=', accountId)
  const rows = await query.execute()
  return new Set(rows.map((r) => r.blob_key as string))
}

export async function findTfaRow(db: Db, userId: number) {
  return db.selectFrom('user_tfa').selectAll().where('user_id', '=', userId).executeTakeFirst()
}
