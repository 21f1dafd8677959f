import type { Db } from '../../../db/connect.ts'

export async function findPreferences(
  db: Db,
  userId: number,
  clientKey: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_preferences')
    .select('preferences')
    .where('user_id', '=', userId)
    .where('client_key', '=', clientKey)
    .executeTakeFirst()
  return row?.preferences
}

export async function savePreferences(
  db: Db,
  userId: number,
  clientKey: string,
  preferences: string,
): Promise<void> {
  await db
    .insertInto('user_preferences')
    .values({ user_id: userId, client_key: clientKey, preferences })
    .onConflict((oc) => oc.columns(['user_id', 'client_key']).doUpdateSet({ preferences }))
    .execute()
}
