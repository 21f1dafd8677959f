import type { Db } from '../../../db/connect.ts'
import type { PhoneVerificationRow } from './phone.table.ts'

export async function findVerification(db: Db, userId: number): Promise<PhoneVerificationRow | undefined> {
  return db.selectFrom('phone_verifications').selectAll().where('user_id', '=', userId).executeTakeFirst()
}

export async function saveVerification(db: Db, row: PhoneVerificationRow): Promise<void> {
  const { user_id, ...values } = row
  await db
    .insertInto('phone_verifications')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute()
}

export async function countAttempt(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('phone_verifications')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .execute()
}

export async function deleteVerification(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('phone_verifications').where('user_id', '=', userId).execute()
}

export async function setVerifiedPhoneNumber(
  db: Db,
  userId: number,
  phoneNumber: string | null,
): Promise<void> {
  await db.updateTable('users').set({ verified_phone_number: phoneNumber }).where('id', '=', userId).execute()
}

export async function findVerifiedPhoneNumber(db: Db, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('verified_phone_number')
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.verified_phone_number ?? null
}
