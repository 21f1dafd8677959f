import type { Db } from '../../../db/connect.ts'
import type { UserTfaRow } from './two-factor.table.ts'

export async function findTfa(db: Db, userId: number): Promise<UserTfaRow | undefined> {
  return db.selectFrom('user_tfa').selectAll().where('user_id', '=', userId).executeTakeFirst()
}

/** A fresh secret awaiting confirmation; a confirmed secret stays in force until then. */
export async function setPendingSecret(
  db: Db,
  userId: number,
  sealed: string,
  expiry: string,
): Promise<void> {
  const values = { pending_secret_sealed: sealed, pending_expiry: expiry }
  await db
    .insertInto('user_tfa')
    .values({ user_id: userId, ...values, secret_sealed: null, last_time_step: null, scratch_digest: null })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute()
}

/** The pending secret becomes the secret in force, with the step just used and a new scratch code. */
export async function confirmSecret(
  db: Db,
  userId: number,
  values: { secretSealed: string; timeStep: number; scratchDigest: string },
): Promise<void> {
  await db
    .updateTable('user_tfa')
    .set({
      pending_secret_sealed: null,
      pending_expiry: null,
      secret_sealed: values.secretSealed,
      last_time_step: values.timeStep,
      scratch_digest: values.scratchDigest,
    })
    .where('user_id', '=', userId)
    .execute()
}

export async function setLastTimeStep(db: Db, userId: number, timeStep: number): Promise<void> {
  await db.updateTable('user_tfa').set({ last_time_step: timeStep }).where('user_id', '=', userId).execute()
}

export async function clearScratchCode(db: Db, userId: number): Promise<void> {
  await db.updateTable('user_tfa').set({ scratch_digest: null }).where('user_id', '=', userId).execute()
}

export async function deleteTfa(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('user_tfa').where('user_id', '=', userId).execute()
}
