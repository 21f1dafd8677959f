import type { Db } from '../../../db/connect.ts'
import { findValue, upsertRow } from '../../../db/rows.ts'

export const findPreferences = (db: Db, userId: number, clientKey: string) =>
  findValue(db, 'user_preferences', 'preferences', { user_id: userId, client_key: clientKey })

export const savePreferences = (db: Db, userId: number, clientKey: string, preferences: string) =>
  upsertRow(db, 'user_preferences', { user_id: userId, client_key: clientKey, preferences }, [
    'user_id',
    'client_key',
  ])
