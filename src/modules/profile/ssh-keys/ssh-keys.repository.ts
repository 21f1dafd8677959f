import type { ListQuery } from '../../../common/pagination.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { findRow, insertRow, pageOfRows, takeRow, updateRow } from '../../../db/rows.ts'

/**
 * No field of an SSH key is filterable (docs/service-facts.md#filterable-fields); the header is
 * still checked, so a filter on anything is refused.
 */
export const SSH_KEY_FILTERS: FilterSpec = {}

export const listSshKeys = (db: Db, userId: number, list: ListQuery) =>
  pageOfRows(db, 'ssh_keys', { user_id: userId }, { spec: SSH_KEY_FILTERS, unique: 'id' }, list)

export const findSshKey = (db: Db, userId: number, id: number) =>
  findRow(db, 'ssh_keys', { user_id: userId, id })

export const insertSshKey = (
  db: Db,
  key: { userId: number; label: string; sshKey: string; created: string },
) =>
  insertRow(db, 'ssh_keys', {
    user_id: key.userId,
    label: key.label,
    ssh_key: key.sshKey,
    created: key.created,
  })

export const updateSshKeyLabel = (db: Db, id: number, label: string) =>
  updateRow(db, 'ssh_keys', { id }, { label })

/** True when this call removed it (a concurrent delete may have first). */
export const deleteSshKey = (db: Db, id: number) => takeRow(db, 'ssh_keys', { id })
