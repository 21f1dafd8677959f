import { sql } from 'kysely'
import { notFound } from '../../../common/errors.ts'
import { mapPage, type PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { compileFilter, type FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import type { Actor } from '../../auth/actor.ts'
import { instanceFor } from '../instances/instance-access.ts'
import * as repo from './disks.repository.ts'
import type { Disk } from './disks.schemas.ts'
import type { DiskRow } from './disks.table.ts'

/** Filterable disk fields (api-facts 2.2). */
const DISK_FILTERS: FilterSpec = {
  label: { column: 'label', type: 'string' },
  size: { column: 'size', type: 'integer' },
}

export function toDisk(row: DiskRow): Disk {
  return {
    id: row.id,
    status: row.status as Disk['status'],
    label: row.label,
    created: row.created,
    updated: row.updated,
    filesystem: row.filesystem as Disk['filesystem'],
    size: row.size,
  }
}

export async function listDisks(
  db: Db,
  actor: Actor,
  instanceId: number,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<Disk>> {
  const compiled = compileFilter(filter, DISK_FILTERS, dialectOf(db))
  const instance = await instanceFor(db, actor, instanceId, 'read_only')
  const order = [
    ...(compiled.order ? [compiled.order] : []),
    { expression: sql.ref('id'), direction: compiled.order?.direction ?? 'asc' } as const,
  ]
  return mapPage(await repo.pageInstanceDisks(db, instance.id, page, compiled.where, order), toDisk)
}

export async function getDisk(db: Db, actor: Actor, instanceId: number, diskId: number): Promise<Disk> {
  const instance = await instanceFor(db, actor, instanceId, 'read_only')
  const row = await repo.findInstanceDisk(db, instance.id, diskId)
  if (row === undefined) throw notFound()
  return toDisk(row)
}
