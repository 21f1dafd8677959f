import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { badRequest, ErrorCollector } from '../../../common/errors.ts'
import type { PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { type Clock, nowTimestamp } from '../../../common/time.ts'
import { compileFilter, type FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf, isUniqueViolation } from '../../../db/dialects/dialect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import { type NewEvent, recordEvents } from '../../events/events.repository.ts'
import { assertEntityGrant, assertGlobalGrant, grantedOnly, grantToCreator } from '../../grants/authorize.ts'
import { deleteEntityGrants } from '../../grants/grants.repository.ts'
import { findVisibleImage, wireImageId } from '../../images/images.repository.ts'
import type { ImageRow } from '../../images/images.table.ts'
import { findRegion } from '../../regions/regions.repository.ts'
import { computeEvent, configEntity, diskEntity } from '../compute-events.ts'
import { insertConfigWithInterfaces } from '../configs/configs.service.ts'
import { insertDisk } from '../disks/disks.repository.ts'
import type { DiskRow } from '../disks/disks.table.ts'
import type { InterfaceInput } from '../interfaces/interfaces.schemas.ts'
import { planInterfaceList } from '../interfaces/interfaces.service.ts'
import { findType, findTypes } from '../types/types.repository.ts'
import type { ComputeTypeRow } from '../types/types.table.ts'
import { instanceFor } from './instance-access.ts'
import * as repo from './instances.repository.ts'
import type { Alerts, CreateInstanceBody, Instance, UpdateInstanceBody } from './instances.schemas.ts'
import type { InstanceRow } from './instances.table.ts'
import { allocatePublicAddresses } from './public-ips.repository.ts'

/** Filterable instance fields. */
const INSTANCE_FILTERS: FilterSpec = {
  id: { column: 'id', type: 'integer' },
  label: { column: 'label', type: 'string' },
  group: { column: 'display_group', type: 'string' },
  region: { column: 'region', type: 'string' },
  type: { column: 'type', type: 'string' },
  image: { column: 'image', type: 'string', nullable: true },
}

const DEFAULT_SWAP_MB = 512
const labelTaken = () => badRequest('Label must be unique among your Computes', 'label')

/** The recorded defaults, with the CPU threshold scaled by the vCPUs (90% each). */
function defaultAlerts(vcpus: number): Alerts {
  return { cpu: 90 * vcpus, network_in: 10, network_out: 10, transfer_quota: 80, io: 10000 }
}

/** At least two kinds of character (lower, upper, digit, other): a root password is never stored. */
function strongEnough(password: string): boolean {
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length
  return kinds >= 2
}

export function toInstance(row: InstanceRow, type: ComputeTypeRow | undefined): Instance {
  return {
    id: row.id,
    label: row.label,
    group: row.display_group,
    status: row.status as Instance['status'],
    created: row.created,
    updated: row.updated,
    type: row.type,
    ipv4: [row.ipv4],
    ipv6: row.ipv6,
    image: row.image,
    region: row.region,
    specs: {
      disk: type?.disk ?? 0,
      memory: type?.memory ?? 0,
      vcpus: type?.vcpus ?? 0,
      gpus: type?.gpus ?? 0,
      transfer: type?.transfer ?? 0,
    },
    alerts: JSON.parse(row.alerts) as Alerts,
    backups: {
      enabled: false,
      available: false,
      schedule: { day: null, window: null },
      last_successful: null,
    },
    hypervisor: 'kvm',
    watchdog_enabled: row.watchdog_enabled,
    tags: JSON.parse(row.tags) as string[],
    host_uuid: row.host_uuid,
    has_user_data: row.has_user_data,
  }
}

export async function renderInstances(db: Db, rows: InstanceRow[]): Promise<Instance[]> {
  const types = new Map(
    (
      await findTypes(
        db,
        rows.map((r) => r.type),
      )
    ).map((t) => [t.id, t]),
  )
  return rows.map((row) => toInstance(row, types.get(row.type)))
}

export async function renderInstance(db: Db, row: InstanceRow): Promise<Instance> {
  return toInstance(row, await findType(db, row.type))
}

export async function listInstances(
  db: Db,
  actor: Actor,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<Instance>> {
  const compiled = compileFilter(filter, INSTANCE_FILTERS, dialectOf(db))
  const granted = grantedOnly(actor, 'compute', 'id')
  const where =
    compiled.where && granted ? sql<boolean>`(${compiled.where} and ${granted})` : (compiled.where ?? granted)
  const order = [
    ...(compiled.order ? [compiled.order] : []),
    { expression: sql.ref('id'), direction: compiled.order?.direction ?? 'asc' } as const,
  ]
  const rows = await repo.listAccountInstances(db, actor.accountId, page, where, order)
  return { ...rows, data: await renderInstances(db, rows.data) }
}

export async function getInstance(db: Db, actor: Actor, id: number): Promise<Instance> {
  return renderInstance(db, await instanceFor(db, actor, id, 'read_only'))
}

interface Deployment {
  image: ImageRow
  rootSize: number
  swapSize: number
}

/**
 * Creates, deploys and (by default) boots an instance in one request: the root and swap disks from
 * the image, a config profile using them with the requested interfaces, a public address. Every
 * step happens now, so the answer already shows the final status; the events tell the story.
 */
export async function createInstance(
  db: Db,
  clock: Clock,
  actor: Actor,
  input: CreateInstanceBody,
): Promise<Instance> {
  return inTransaction(db, async (trx) => {
    await assertGlobalGrant(trx, actor, 'add_computes')
    const errors = new ErrorCollector()
    const type = await findType(trx, input.type)
    if (type === undefined) errors.add('A valid plan type by that ID was not found', 'type')
    const region = await findRegion(trx, input.region)
    if (region === undefined) errors.add('Region not found', 'region')
    else if (!(JSON.parse(region.capabilities) as string[]).includes('Computes')) {
      errors.add('Region does not support Computes', 'region')
    }
    if (input.label !== undefined && (await repo.findInstanceByLabel(trx, actor.accountId, input.label))) {
      errors.add('Label must be unique among your Computes', 'label')
    }
    const deployment = await planDeployment(trx, actor, input, type, errors)
    const now = nowTimestamp(clock)
    const addresses = region ? await allocatePublicAddresses(trx, region.id) : undefined
    const draft: InstanceRow = {
      id: 0,
      account_id: actor.accountId,
      label: input.label ?? `compute-${randomBytes(8).toString('hex')}`,
      display_group: input.group ?? '',
      status: 'provisioning',
      type: input.type,
      region: input.region,
      image: deployment ? wireImageId(deployment.image) : null,
      ipv4: addresses?.ipv4 ?? '',
      ipv6: addresses?.ipv6 ?? '',
      host_uuid: randomBytes(20).toString('hex'),
      watchdog_enabled: true,
      alerts: JSON.stringify(defaultAlerts(type?.vcpus ?? 1)),
      tags: JSON.stringify(input.tags ?? []),
      has_user_data: false,
      booted_config_id: null,
      created: now,
      updated: now,
    }
    const interfaces = (input.interfaces ?? []) as InterfaceInput[]
    // Checked before anything is written, so every problem is reported at once.
    const planned =
      region !== undefined && interfaces.length > 0
        ? await planInterfaceList(trx, actor, draft, [], interfaces, 'interfaces', errors)
        : undefined
    errors.throwIfAny()

    let instance: InstanceRow
    try {
      const { id: _draftId, ...values } = draft
      instance = await repo.insertInstance(trx, values)
      if (input.label === undefined) {
        instance = await repo.updateInstance(trx, instance.id, { label: `compute${instance.id}` })
      }
    } catch (error) {
      if (isUniqueViolation(error)) throw labelTaken()
      throw error
    }
    const events: NewEvent[] = [computeEvent(actor, 'compute_create', instance, now)]
    const disks: DiskRow[] = []
    if (deployment) {
      const { image, rootSize, swapSize } = deployment
      disks.push(await insertDisk(trx, disk(instance.id, `${image.label} Disk`, rootSize, 'ext4', now)))
      if (swapSize > 0) {
        disks.push(
          await insertDisk(trx, disk(instance.id, `${swapSize} MB Swap Image`, swapSize, 'swap', now)),
        )
      }
      for (const d of disks)
        events.push(
          computeEvent(actor, 'disk_create', instance, now, { secondary: diskEntity(instance.id, d) }),
        )
    }
    if (deployment || interfaces.length > 0) {
      const config = await insertConfigWithInterfaces(
        trx,
        actor,
        instance,
        {
          label: deployment ? `My ${deployment.image.label} Disk Profile` : 'My Compute Profile',
          kernel: 'compute/grub2',
          devices: {
            sda: disks[0] ? { disk_id: disks[0].id } : null,
            sdb: disks[1] ? { disk_id: disks[1].id } : null,
          },
          interfaces,
        },
        now,
        new ErrorCollector(),
        planned,
      )
      const secondary = configEntity(instance.id, config)
      events.push(
        computeEvent(actor, 'compute_config_create', instance, now, { secondary, status: 'notification' }),
      )
      if (deployment && input.booted !== false) {
        instance = await repo.updateInstance(trx, instance.id, {
          status: 'running',
          booted_config_id: config.id,
        })
        await repo.setActiveConfig(trx, instance.id, config.id)
        events.push(computeEvent(actor, 'compute_boot', instance, now, { secondary }))
      }
    }
    if (instance.status === 'provisioning')
      instance = await repo.updateInstance(trx, instance.id, { status: 'offline' })
    await grantToCreator(trx, actor, 'compute', instance.id)
    await recordEvents(trx, events)
    return toInstance(instance, type)
  })
}

const disk = (instanceId: number, label: string, size: number, filesystem: string, now: string) => ({
  instance_id: instanceId,
  label,
  status: 'ready',
  size,
  filesystem,
  created: now,
  updated: now,
})

/** The image to deploy, if any: it must be visible and available, and fit the type's disk. */
async function planDeployment(
  db: Db,
  actor: Actor,
  input: CreateInstanceBody,
  type: ComputeTypeRow | undefined,
  errors: ErrorCollector,
): Promise<Deployment | undefined> {
  if (input.image === undefined || input.image === null || input.image === '') return undefined
  const image = await findVisibleImage(db, actor.accountId, input.image)
  if (image === undefined) {
    errors.add('Image not found', 'image')
    return undefined
  }
  if (image.account_id !== null) await assertEntityGrant(db, actor, 'image', image.id, 'read_only')
  if (image.status !== 'available') errors.add('Only available images can be deployed', 'image')
  if (input.root_pass === undefined) errors.add('root_pass is required when deploying an image', 'root_pass')
  else if (!strongEnough(input.root_pass))
    errors.add('Password does not meet strength requirement.', 'root_pass')
  if (type === undefined) return undefined
  const swapSize = input.swap_size ?? DEFAULT_SWAP_MB
  const rootSize = type.disk - swapSize
  if (rootSize < image.size) {
    errors.add(
      `The image needs ${image.size} MB; this type leaves ${Math.max(rootSize, 0)} MB after swap`,
      'type',
    )
    return undefined
  }
  return { image, rootSize, swapSize }
}

export async function updateInstance(
  db: Db,
  clock: Clock,
  actor: Actor,
  id: number,
  input: UpdateInstanceBody,
): Promise<Instance> {
  const row = await inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, id, 'read_write')
    if (input.label !== undefined && input.label !== instance.label) {
      if (await repo.findInstanceByLabel(trx, actor.accountId, input.label)) throw labelTaken()
    }
    const now = nowTimestamp(clock)
    let next: InstanceRow
    try {
      next = await repo.updateInstance(trx, instance.id, {
        ...(input.label !== undefined && { label: input.label }),
        ...(input.group !== undefined && { display_group: input.group }),
        ...(input.tags !== undefined && { tags: JSON.stringify(input.tags) }),
        ...(input.watchdog_enabled !== undefined && { watchdog_enabled: input.watchdog_enabled }),
        ...(input.alerts !== undefined && {
          alerts: JSON.stringify({ ...(JSON.parse(instance.alerts) as Alerts), ...input.alerts }),
        }),
        updated: now,
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw labelTaken()
      throw error
    }
    await recordEvents(trx, [computeEvent(actor, 'compute_update', next, now, { status: 'notification' })])
    return next
  })
  return renderInstance(db, row)
}

/** Deletes the instance with its disks, profiles and interfaces (which frees their subnets). */
export async function deleteInstance(db: Db, clock: Clock, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, id, 'read_write')
    await repo.deleteInstance(trx, instance.id)
    await deleteEntityGrants(trx, 'compute', instance.id)
    await recordEvents(trx, [computeEvent(actor, 'compute_delete', instance, nowTimestamp(clock))])
  })
}
