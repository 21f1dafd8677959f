import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { ApiError, badRequest, ErrorCollector } from '../../common/errors.ts'
import { type ListQuery, mapPage } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import { nowTimestamp } from '../../common/time.ts'
import { enqueueJob } from '../../jobs/jobs.repository.ts'
import { accessConfig } from '../compute/configs/configs.service.ts'
import { accessInstance } from '../compute/instances/instances.service.ts'
import type { InstanceRow } from '../compute/instances/instances.table.ts'
import { recordEvent, recordEvents } from '../events/events.service.ts'
import { assertGlobalGrant, grantedListScope, grantToCreator } from '../grants/authorize.ts'
import { accessAccountEntity } from '../grants/entity-access.ts'
import type { Permission } from '../grants/grant-types.ts'
import { deleteEntityGrants } from '../grants/grants.service.ts'
import { checkRegionOffers } from '../regions/region-capabilities.ts'
import { findRegion } from '../regions/regions.service.ts'
import { writeUnique } from '../vpcs/unique-write.ts'
import { volumeEvent } from './volume-events.ts'
import * as repo from './volumes.repository.ts'
import {
  type AttachVolumeBody,
  type CreateVolumeBody,
  type ResizeVolumeBody,
  type UpdateVolumeBody,
  VOLUME_SIZE_DEFAULT,
  type Volume,
} from './volumes.schemas.ts'
import type { VolumeRow, VolumeView } from './volumes.table.ts'

export interface VolumeIds {
  volumeId: number
}

/** Attach, detach and delete complete within the request. */
const finished = { status: 'finished', percentComplete: 100, duration: 0 } as const

const labelTaken = () => badRequest('Label must be unique among your Volumes', 'label')

export function toVolume(view: VolumeView): Volume {
  return {
    id: view.id,
    label: view.label,
    status: view.status,
    size: view.size,
    region: view.region,
    linode_id: view.linode_id,
    linode_label: view.linode_label,
    created: view.created,
    updated: view.updated,
    filesystem_path: `/dev/disk/by-id/scsi-0Linode_Volume_${view.label}`,
    tags: JSON.parse(view.tags) as string[],
    hardware_type: view.hardware_type,
    encryption: view.encryption,
  }
}

/**
 * The one way to reach a volume: one the caller's account does not have is not found (404) before
 * any grant is consulted; a restricted caller then needs `permission` on it (403). Writers lock it.
 */
export async function accessVolume(
  ctx: RequestContext,
  { volumeId }: VolumeIds,
  permission: Permission,
): Promise<VolumeRow> {
  return accessAccountEntity(ctx, 'volume', permission, (options) =>
    repo.findAccountVolume(ctx.db, ctx.actor.accountId, volumeId, options),
  )
}

async function rendered(ctx: RequestContext, row: VolumeRow): Promise<Volume> {
  const view = await repo.findVolumeView(ctx.db, row.id)
  return toVolume(view ?? { ...row, linode_label: null })
}

/** Another account's instance (or config) is named by the body, so not finding it is a bad request. */
async function asField<T>(field: string, reason: string, find: () => Promise<T>): Promise<T> {
  try {
    return await find()
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') throw badRequest(reason, field)
    throw error
  }
}

/** The instance (and optionally its config profile) a volume is to be attached to, writable by the caller. */
async function attachTarget(
  ctx: RequestContext,
  instanceId: number,
  configId: number | null | undefined,
): Promise<InstanceRow> {
  const instance = await asField('linode_id', 'Compute not found', () =>
    accessInstance(ctx, { instanceId }, 'read_write'),
  )
  if (configId !== undefined && configId !== null) {
    await asField('config_id', 'Config not found', () =>
      accessConfig(ctx, { instanceId, configId }, 'read_write'),
    )
  }
  return instance
}

export async function listVolumes(ctx: RequestContext, query: ListQuery): Promise<PageResult<Volume>> {
  return mapPage(await repo.listVolumes(ctx.db, grantedListScope(ctx.actor), query), toVolume)
}

export async function getVolume(ctx: RequestContext, ids: VolumeIds): Promise<Volume> {
  return rendered(ctx, await accessVolume(ctx, ids, 'read_only'))
}

/** Queues the job that ends a volume's `creating` or `resizing` status and finishes its event. */
async function queueVolumeWork(ctx: RequestContext, volumeId: number, eventId: number, now: string) {
  await enqueueJob(ctx.db, {
    kind: 'volume-ready',
    payload: { volumeId, eventId, started: now },
    runAt: now,
    created: now,
  })
}

/**
 * Creates a volume in a region with block storage, or in an instance's region attached to it.
 * It comes back `creating`; a job makes it `active`.
 */
export async function createVolume(ctx: RequestContext, input: CreateVolumeBody): Promise<Volume> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    await assertGlobalGrant(db, actor, 'add_volumes')
    const errors = new ErrorCollector()
    const linodeId = input.linode_id ?? null
    let instance: InstanceRow | undefined
    if (linodeId !== null) instance = await attachTarget(tx, linodeId, input.config_id)
    else if (input.config_id !== undefined && input.config_id !== null) {
      errors.add('A config can only be given with a Compute to attach to', 'config_id')
    }
    const regionId = input.region ?? instance?.region
    if (regionId === undefined) errors.add('Must provide a region or a Compute ID', 'region')
    else if (instance !== undefined && regionId !== instance.region) {
      errors.add('Volume and Compute must be in the same region', 'region')
    } else checkRegionOffers(await findRegion(db, regionId), 'Block Storage', errors)
    if (await repo.findVolumeByLabel(db, actor.accountId, input.label)) {
      errors.add('Label must be unique among your Volumes', 'label')
    }
    errors.throwIfAny()

    const now = nowTimestamp(tx.clock)
    const row = await writeUnique(
      () =>
        repo.insertVolume(db, {
          account_id: actor.accountId,
          label: input.label,
          region: regionId as string,
          size: input.size ?? VOLUME_SIZE_DEFAULT,
          status: 'creating',
          linode_id: linodeId,
          config_id: input.config_id ?? null,
          hardware_type: 'nvme',
          encryption: input.encryption ?? 'disabled',
          tags: JSON.stringify(input.tags ?? []),
          created: now,
          updated: now,
        }),
      labelTaken,
    )
    await grantToCreator(db, actor, 'volume', row.id)
    const eventId = await recordEvent(
      db,
      volumeEvent(actor, 'volume_create', row, now, { status: 'started', percentComplete: 0 }),
    )
    await queueVolumeWork(tx, row.id, eventId, now)
    return rendered(tx, row)
  })
}

export async function updateVolume(
  ctx: RequestContext,
  ids: VolumeIds,
  input: UpdateVolumeBody,
): Promise<Volume> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    const current = await accessVolume(tx, ids, 'read_write')
    if (input.label !== undefined && input.label !== current.label) {
      if (await repo.findVolumeByLabel(db, actor.accountId, input.label)) throw labelTaken()
    }
    const now = nowTimestamp(tx.clock)
    const changes = {
      ...(input.label !== undefined && { label: input.label }),
      ...(input.tags !== undefined && { tags: JSON.stringify(input.tags) }),
      updated: now,
    }
    const row = await writeUnique(() => repo.updateVolume(db, current.id, changes), labelTaken)
    await recordEvents(db, [volumeEvent(actor, 'volume_update', row, now)])
    return rendered(tx, row)
  })
}

/** A volume is deleted only once detached, as the real service requires. */
export async function deleteVolume(ctx: RequestContext, ids: VolumeIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessVolume(tx, ids, 'read_write')
    if (row.linode_id !== null) throw badRequest('Volume must be detached before it can be deleted')
    await repo.deleteVolume(tx.db, row.id)
    await deleteEntityGrants(tx.db, 'volume', row.id)
    await recordEvents(tx.db, [volumeEvent(tx.actor, 'volume_delete', row, nowTimestamp(tx.clock), finished)])
  })
}

/** Attaches a detached volume to an instance of its region (and config profile, if given). */
export async function attachVolume(
  ctx: RequestContext,
  ids: VolumeIds,
  input: AttachVolumeBody,
): Promise<Volume> {
  return inContextTransaction(ctx, async (tx) => {
    const current = await accessVolume(tx, ids, 'read_write')
    if (current.linode_id !== null) throw badRequest('Volume is already attached to a Compute', 'linode_id')
    const instance = await attachTarget(tx, input.linode_id, input.config_id)
    if (instance.region !== current.region) {
      throw badRequest('Volume and Compute must be in the same region', 'linode_id')
    }
    const now = nowTimestamp(tx.clock)
    const row = await repo.updateVolume(tx.db, current.id, {
      linode_id: instance.id,
      config_id: input.config_id ?? null,
      updated: now,
    })
    await recordEvents(tx.db, [volumeEvent(tx.actor, 'volume_attach', row, now, { ...finished, instance })])
    return rendered(tx, row)
  })
}

export async function detachVolume(ctx: RequestContext, ids: VolumeIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const current = await accessVolume(tx, ids, 'read_write')
    if (current.linode_id === null) throw badRequest('Volume is not attached')
    const instance = await accessInstance(tx, { instanceId: current.linode_id }, 'read_write')
    const now = nowTimestamp(tx.clock)
    const row = await repo.updateVolume(tx.db, current.id, { linode_id: null, config_id: null, updated: now })
    await recordEvents(tx.db, [volumeEvent(tx.actor, 'volume_detach', row, now, { ...finished, instance })])
  })
}

/** Grows an active volume; it is `resizing` until a job makes it `active` again. */
export async function resizeVolume(
  ctx: RequestContext,
  ids: VolumeIds,
  input: ResizeVolumeBody,
): Promise<Volume> {
  return inContextTransaction(ctx, async (tx) => {
    const current = await accessVolume(tx, ids, 'read_write')
    if (input.size <= current.size) {
      throw badRequest(`Size must be larger than the volume's current size of ${current.size} GB`, 'size')
    }
    if (current.status !== 'active')
      throw badRequest(`Volume is ${current.status}; try again when it is active`)
    const now = nowTimestamp(tx.clock)
    const row = await repo.updateVolume(tx.db, current.id, {
      size: input.size,
      status: 'resizing',
      updated: now,
    })
    const eventId = await recordEvent(
      tx.db,
      volumeEvent(tx.actor, 'volume_resize', row, now, { status: 'started', percentComplete: 0 }),
    )
    await queueVolumeWork(tx, row.id, eventId, now)
    return rendered(tx, row)
  })
}
