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

/** Work under way on a resource, by the payload field that names it. */
const WORK_ON = {
  'instance-work': ['compute_instances', 'instanceId'],
  'image-capture': ['images', 'imageId'],
  'image-upload-check': ['images', 'imageId'],
  'volume-ready': ['volumes', 'volumeId'],
} as const

/**
 * Cancels the work under way on an account's instances, images and volumes that has not started:
 * after a reset of the account, the restored resources (which may have the same ids) are left as
 * restored. Jobs are the server's, not the account's, so the account's are found by payload.
 */
export async function cancelAccountWork(db: Db, accountId: number): Promise<void> {
  const pending = await db
    .selectFrom('jobs')
    .select(['id', 'kind', 'payload'])
    .where('status', '=', 'pending')
    .where('kind', 'in', Object.keys(WORK_ON))
    .execute()
  if (pending.length === 0) return
  const owned = new Map<string, Set<number>>()
  for (const table of new Set(Object.values(WORK_ON).map(([name]) => name))) {
    const rows = await db.selectFrom(table).select('id').where('account_id', '=', accountId).execute()
    owned.set(table, new Set(rows.map((row) => Number(row.id))))
  }
  const cancelled = pending
    .filter((job) => {
      const [table, field] = WORK_ON[job.kind as keyof typeof WORK_ON]
      const payload = JSON.parse(job.payload) as Record<string, unknown>
      return owned.get(table)?.has(Number(payload[field])) === true
    })
    .map((job) => job.id)
  if (cancelled.length > 0) await db.deleteFrom('jobs').where('id', 'in', cancelled).execute()
}
