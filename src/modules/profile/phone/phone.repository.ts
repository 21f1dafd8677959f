import type { Db } from '../../../db/connect.ts'
import { deleteRows, findRow, upsertRow } from '../../../db/rows.ts'
import type { PhoneVerificationRow } from './phone.table.ts'

export const findVerification = (db: Db, userId: number) =>
  findRow(db, 'phone_verifications', { user_id: userId })

export const saveVerification = (db: Db, row: PhoneVerificationRow) =>
  upsertRow(db, 'phone_verifications', row, ['user_id'])

export async function countAttempt(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('phone_verifications')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .execute()
}

export const deleteVerification = (db: Db, userId: number) =>
  deleteRows(db, 'phone_verifications', { user_id: userId })

/** The sends counted against one limit within a window: how many, and the oldest and latest. */
export interface SendWindow {
  count: number
  oldest: string | null
  latest: string | null
}

/**
 * SMS codes sent after `since` and up to `until`: by the user, to the number, and in all. Sends
 * after `until` are left out: they were made before the app clock was set back.
 */
export async function sendsBetween(
  db: Db,
  who: { userId: number; phoneNumber: string },
  { since, until }: { since: string; until: string },
): Promise<{ user: SendWindow; number: SendWindow; all: SendWindow }> {
  const window = async (column: 'user_id' | 'phone_number' | undefined, value?: number | string) => {
    let query = db
      .selectFrom('phone_code_sends')
      .select((eb) => [
        eb.fn.countAll<number | string | bigint>().as('count'),
        eb.fn.min('sent').as('oldest'),
        eb.fn.max('sent').as('latest'),
      ])
      .where('sent', '>', since)
      .where('sent', '<=', until)
    if (column !== undefined) query = query.where(column, '=', value as never)
    const row = await query.executeTakeFirstOrThrow()
    return { count: Number(row.count), oldest: row.oldest ?? null, latest: row.latest ?? null }
  }
  return {
    user: await window('user_id', who.userId),
    number: await window('phone_number', who.phoneNumber),
    all: await window(undefined),
  }
}

export async function recordSend(
  db: Db,
  send: { user_id: number; phone_number: string; sent: string },
): Promise<number> {
  const row = await db.insertInto('phone_code_sends').values(send).returning('id').executeTakeFirstOrThrow()
  return Number(row.id)
}

/** A send that did not reach the gateway does not count. */
export const forgetSend = (db: Db, id: number) => deleteRows(db, 'phone_code_sends', { id })

/** Sends older than every window are of no more use. */
export async function pruneSends(db: Db, before: string): Promise<void> {
  await db.deleteFrom('phone_code_sends').where('sent', '<=', before).execute()
}
