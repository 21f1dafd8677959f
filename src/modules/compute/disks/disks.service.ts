import type { RequestContext } from '../../../common/context.ts'
import { foundOrNotFound } from '../../../common/errors.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Permission } from '../../grants/grant-types.ts'
import { accessInstance, type InstanceIds } from '../instances/instance-access.ts'
import type { InstanceRow } from '../instances/instances.table.ts'
import * as repo from './disks.repository.ts'
import type { Disk } from './disks.schemas.ts'
import type { DiskRow } from './disks.table.ts'

export interface DiskIds extends InstanceIds {
  diskId: number
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

/**
 * The one way to reach a disk: its instance as `accessInstance` gives it (in the account, with
 * `permission`, locked for a write), then the disk among the instance's (404 otherwise).
 */
export async function accessDisk(
  ctx: RequestContext,
  { instanceId, diskId }: DiskIds,
  permission: Permission,
): Promise<{ instance: InstanceRow; disk: DiskRow }> {
  const instance = await accessInstance(ctx, { instanceId }, permission)
  return { instance, disk: foundOrNotFound(await repo.findInstanceDisk(ctx.db, instance.id, diskId)) }
}

/**
 * The instance a disk of the caller's account belongs to, for requests that name only the disk
 * (image capture); undefined when the account has no such disk. Access goes through `accessDisk`.
 */
export async function findDiskInstanceId(
  ctx: RequestContext,
  { diskId }: { diskId: number },
): Promise<number | undefined> {
  return (await repo.findAccountDisk(ctx.db, ctx.actor.accountId, diskId))?.instance_id
}

export async function listDisks(
  ctx: RequestContext,
  { instanceId }: InstanceIds,
  list: ListQuery,
): Promise<PageResult<Disk>> {
  const criteria = repo.diskListCriteria(ctx.db, list.filter)
  const instance = await accessInstance(ctx, { instanceId }, 'read_only')
  return mapPage(await repo.pageInstanceDisks(ctx.db, instance.id, list.page, criteria), toDisk)
}

export async function getDisk(ctx: RequestContext, ids: DiskIds): Promise<Disk> {
  return toDisk((await accessDisk(ctx, ids, 'read_only')).disk)
}
