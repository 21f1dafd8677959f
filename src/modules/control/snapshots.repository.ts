import type { Db } from '../../db/connect.ts'
import type { ControlSnapshotRow } from './snapshots.table.ts'

export type SnapshotSummary = Pick<ControlSnapshotRow, 'name' | 'created' | 'size'>

export async function listSnapshots(db: Db): Promise<SnapshotSummary[]> {
  return db
    .selectFrom('control_snapshots')
    .select(['name', 'created', 'size'])
    .where('kind', '=', 'snapshot')
    .orderBy('name')
    .execute()
}

export async function findSnapshot(
  db: Db,
  name: string,
  kind: ControlSnapshotRow['kind'],
): Promise<ControlSnapshotRow | undefined> {
  return db
    .selectFrom('control_snapshots')
    .selectAll()
    .where('name', '=', name)
    .where('kind', '=', kind)
    .executeTakeFirst()
}

/** Saves (or replaces) a snapshot or baseline. */
export async function putSnapshot(db: Db, row: ControlSnapshotRow): Promise<void> {
  const { name, ...rest } = row
  await db
    .insertInto('control_snapshots')
    .values(row)
    .onConflict((oc) => oc.column('name').doUpdateSet(rest))
    .execute()
}

/** Saves a baseline only if there is none yet: the first process to start wins. */
export async function insertSnapshotIfAbsent(db: Db, row: ControlSnapshotRow): Promise<void> {
  await db
    .insertInto('control_snapshots')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
}

export async function deleteSnapshot(db: Db, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom('control_snapshots')
    .where('name', '=', name)
    .where('kind', '=', 'snapshot')
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
