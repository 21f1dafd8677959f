import type { Db } from '../../../db/connect.ts'
import { deleteRows, findRow, updateRows, upsertRow } from '../../../db/rows.ts'

export const findTfa = (db: Db, userId: number) => findRow(db, 'user_tfa', { user_id: userId })

/** A fresh secret awaiting confirmation; a confirmed secret stays in force until then. */
export async function setPendingSecret(
  db: Db,
  userId: number,
  sealed: string,
  expiry: string,
): Promise<void> {
  const values = { pending_secret_sealed: sealed, pending_expiry: expiry }
  const fresh = {
    user_id: userId,
    ...values,
    secret_sealed: null,
    last_time_step: null,
    scratch_digest: null,
  }
  await upsertRow(db, 'user_tfa', fresh, ['user_id'], values)
}

/** The pending secret becomes the secret in force, with the step just used and a new scratch code. */
export async function confirmSecret(
  db: Db,
  userId: number,
  values: { secretSealed: string; timeStep: number; scratchDigest: string },
): Promise<void> {
  await updateRows(
    db,
    'user_tfa',
    { user_id: userId },
    {
      pending_secret_sealed: null,
      pending_expiry: null,
      secret_sealed: values.secretSealed,
      last_time_step: values.timeStep,
      scratch_digest: values.scratchDigest,
    },
  )
}

export const setLastTimeStep = (db: Db, userId: number, timeStep: number) =>
  updateRows(db, 'user_tfa', { user_id: userId }, { last_time_step: timeStep })

export const clearScratchCode = (db: Db, userId: number) =>
  updateRows(db, 'user_tfa', { user_id: userId }, { scratch_digest: null })

export const deleteTfa = (db: Db, userId: number) => deleteRows(db, 'user_tfa', { user_id: userId })
