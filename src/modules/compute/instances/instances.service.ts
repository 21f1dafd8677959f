import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { badRequest, ErrorCollector } from '../../../common/errors.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import { randomBytes } from '../../../common/random.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { isUniqueViolation } from '../../../db/dialects/dialect.ts'
import { lockAccount } from '../../accounts/accounts.service.ts'
import type { TransferQuotas } from '../../accounts/transfer-quotas.ts'
import { buildEvent } from '../../events/event-builder.ts'
import type { NewEvent } from '../../events/event-types.ts'
import { recordEvents } from '../../events/events.service.ts'
import { assertGlobalGrant, grantedListScope, grantToCreator } from '../../grants/authorize.ts'
import { deleteEntityGrants } from '../../grants/grants.service.ts'
import { checkRegionOffers } from '../../regions/region-capabilities.ts'
import { findRegion, findSiteTypes } from '../../regions/regions.service.ts'
import { configEntity, diskEntity, finishedOnInstance, imageEntity, onInstance } from '../compute-events.ts'
import { insertConfigWithInterfaces } from '../configs/configs.service.ts'
import { insertDisk } from '../disks/disks.repository.ts'
import type { DiskRow } from '../disks/disks.table.ts'
import type { InterfaceInput } from '../interfaces/interfaces.schemas.ts'
import { planInterfaceList } from '../interfaces/interfaces.service.ts'
import { countScriptDeployment, planScriptDeployment } from '../scripts/scripts.service.ts'
import { findType, findTypes } from '../types/types.repository.ts'
import type { ComputeTypeRow } from '../types/types.table.ts'
import type { DeployImage, DeployImages } from './deploy-image.ts'
import { accessInstance, type InstanceIds } from './instance-access.ts'
import { countAccountInstances, instancesPerAccount } from './instance-limits.repository.ts'
import { instanceWorkSeconds, scheduleInstanceWork } from './instance-work.service.ts'
import * as repo from './instances.repository.ts'
import type { Alerts, CreateInstanceBody, Instance, UpdateInstanceBody } from './instances.schemas.ts'
import type { InstanceRow } from './instances.table.ts'
import { allocatePublicAddresses, releasePublicAddresses } from './public-ips.repository.ts'

export { accessInstance, type InstanceIds } from './instance-access.ts'
/** A region's public addresses are one sequence for every resource that takes one (load balancers too). */
export {
  allocatePublicAddresses,
  type PublicAddresses,
  releasePublicAddresses,
} from './public-ips.repository.ts'

import { DOCUMENT_VOCABULARY } from '../../../vocabulary/vocabulary.ts'

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

/**
 * An instance as the API answers it; `siteType` is its region's. The fields of later versions are
 * what an instance here has: no placement group, disk encryption, Kubernetes cluster, locks or
 * maintenance policy, and interfaces on its config profiles (docs/decisions.md).
 */
export function toInstance(row: InstanceRow, type: ComputeTypeRow | undefined, siteType: string): Instance {
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
    site_type: siteType,
    specs: {
      disk: type?.disk ?? 0,
      memory: type?.memory ?? 0,
      vcpus: type?.vcpus ?? 0,
      gpus: type?.gpus ?? 0,
      transfer: type?.transfer ?? 0,
      accelerated_devices: 0,
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
    placement_group: null,
    disk_encryption: 'disabled',
    lke_cluster_id: null,
    capabilities: [],
    interface_generation: 'legacy_config',
    maintenance_policy: null,
    locks: [],
  }
}

export async function renderInstances(db: Db, rows: InstanceRow[]): Promise<Instance[]> {
  const [types, siteTypes] = await Promise.all([
    findTypes(
      db,
      rows.map((r) => r.type),
    ),
    findSiteTypes(
      db,
      rows.map((r) => r.region),
    ),
  ])
  const byId = new Map(types.map((t) => [t.id, t]))
  return rows.map((row) => toInstance(row, byId.get(row.type), siteTypes.get(row.region) ?? CORE))
}

export async function renderInstance(db: Db, row: InstanceRow): Promise<Instance> {
  return (await renderInstances(db, [row]))[0] as Instance
}

/** A region the catalogue no longer has (an operator's file changed) counts as a core site. */
const CORE = 'core'

export async function listInstances(ctx: RequestContext, list: ListQuery): Promise<PageResult<Instance>> {
  const rows = await repo.listAccountInstances(ctx.db, grantedListScope(ctx.actor), list)
  return { ...rows, data: await renderInstances(ctx.db, rows.data) }
}

/** The account's transfer pool by region: each instance adds its type's monthly transfer. */
export const transferQuotas: TransferQuotas = {
  byRegion: (ctx) => repo.sumTransferByRegion(ctx.db, ctx.actor.accountId),
}

export async function getInstance(ctx: RequestContext, ids: InstanceIds): Promise<Instance> {
  return renderInstance(ctx.db, await accessInstance(ctx, ids, 'read_only'))
}

/**
 * The account's instance limit, with the real service's answer when it is reached. Creates of one
 * account are serialized here, so racing requests cannot both take the last place.
 */
async function checkInstanceLimit(tx: RequestContext): Promise<void> {
  await lockAccount(tx)
  const limit = await instancesPerAccount(tx.db, tx.actor.accountId)
  if ((await countAccountInstances(tx.db, tx.actor.accountId)) >= limit) {
    throw badRequest('Account Limit reached. Please open a support ticket.')
  }
}

interface Deployment {
  image: DeployImage
  rootSize: number
  swapSize: number
}

/**
 * Creates, deploys and (by default) boots an instance in one request: the root and swap disks from
 * the image (found through `images`), a config profile using them with the requested interfaces, a
 * public address. Every step happens now, so the answer already shows the final status; the events
 * tell the story.
 */
export async function createInstance(
  ctx: RequestContext,
  input: CreateInstanceBody,
  images: DeployImages,
  /** The wire vocabulary's prefix of default labels (`<prefix><id>`). */
  labelPrefix = DOCUMENT_VOCABULARY.defaultInstanceLabelPrefix,
): Promise<Instance> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    await assertGlobalGrant(db, actor, 'add_computes')
    await checkInstanceLimit(tx)
    const errors = new ErrorCollector()
    const type = await findType(db, input.type)
    if (type === undefined) errors.add('A valid plan type by that ID was not found', 'type')
    const region = await findRegion(db, input.region)
    checkRegionOffers(region, 'Computes', errors)
    if (input.label !== undefined && (await repo.findInstanceByLabel(db, actor.accountId, input.label))) {
      errors.add('Label must be unique among your Computes', 'label')
    }
    const deployment = await planDeployment(tx, images, input, type, errors)
    const script =
      input.stackscript_id == null
        ? undefined
        : await planScriptDeployment(
            tx,
            {
              stackscriptId: input.stackscript_id,
              data: input.stackscript_data ?? {},
              imageId: deployment?.image.id ?? (input.image || undefined),
            },
            errors,
          )
    const now = nowTimestamp(tx.clock)
    const addresses = region ? await allocatePublicAddresses(db, region.id) : undefined
    const draft: InstanceRow = {
      id: 0,
      account_id: actor.accountId,
      label: input.label ?? `compute-${randomBytes(8).toString('hex')}`,
      display_group: input.group ?? '',
      status: 'provisioning',
      type: input.type,
      region: input.region,
      image: deployment ? deployment.image.id : null,
      ipv4: addresses?.ipv4 ?? '',
      ipv6: addresses?.ipv6 ?? '',
      host_uuid: randomBytes(20).toString('hex'),
      watchdog_enabled: true,
      alerts: JSON.stringify(defaultAlerts(type?.vcpus ?? 1)),
      tags: JSON.stringify(input.tags ?? []),
      has_user_data: false,
      booted_config_id: null,
      stackscript_id: script?.id ?? null,
      created: now,
      updated: now,
    }
    const interfaces = (input.interfaces ?? []) as InterfaceInput[]
    // Checked before anything is written, so every problem is reported at once.
    const planned =
      region !== undefined && interfaces.length > 0
        ? await planInterfaceList(tx, draft, [], interfaces, 'interfaces', errors)
        : undefined
    errors.throwIfAny()

    let instance: InstanceRow
    try {
      const { id: _draftId, ...values } = draft
      instance = await repo.insertInstance(db, values)
      if (input.label === undefined) {
        instance = await repo.updateInstance(db, instance.id, { label: `${labelPrefix}${instance.id}` })
      }
    } catch (error) {
      if (isUniqueViolation(error)) throw labelTaken()
      throw error
    }
    // The deployed image is the create event's secondary entity, as on the real service.
    const created = finishedOnInstance(instance, deployment ? imageEntity(deployment.image) : null)
    // Timed work (an emulator setting; instant by default): the create, then the boot, take time.
    const createSeconds = await instanceWorkSeconds(db, 'compute_create')
    const events: NewEvent[] = createSeconds > 0 ? [] : [buildEvent(actor, 'compute_create', created, now)]
    let bootConfigId: number | null = null
    const disks: DiskRow[] = []
    if (deployment) {
      const { image, rootSize, swapSize } = deployment
      disks.push(await insertDisk(db, disk(instance.id, `${image.label} Disk`, rootSize, 'ext4', now)))
      if (swapSize > 0) {
        disks.push(
          await insertDisk(db, disk(instance.id, `${swapSize} MB Swap Image`, swapSize, 'swap', now)),
        )
      }
      for (const d of disks) {
        const parts = finishedOnInstance(instance, diskEntity(instance.id, d))
        events.push(buildEvent(actor, 'disk_create', parts, now))
      }
    }
    if (deployment || interfaces.length > 0) {
      const config = await insertConfigWithInterfaces(
        tx,
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
      events.push(buildEvent(actor, 'compute_config_create', onInstance(instance, secondary), now))
      if (deployment && input.booted !== false) bootConfigId = config.id
      if (deployment && input.booted !== false && createSeconds === 0) {
        instance = await repo.updateInstance(db, instance.id, {
          status: 'running',
          booted_config_id: config.id,
        })
        await repo.setActiveConfig(db, instance.id, config.id)
        events.push(buildEvent(actor, 'compute_boot', finishedOnInstance(instance, secondary), now))
      }
    }
    if (instance.status === 'provisioning' && createSeconds === 0)
      instance = await repo.updateInstance(db, instance.id, { status: 'offline' })
    if (script) await countScriptDeployment(tx, script.id, 1)
    await grantToCreator(db, actor, 'compute', instance.id)
    await recordEvents(db, events)
    if (createSeconds > 0) {
      instance = await scheduleInstanceWork(db, actor, instance, 'compute_create', {
        seconds: createSeconds,
        configId: bootConfigId,
        boot: bootConfigId !== null,
        secondary: created.secondary ?? null,
        now,
      })
    }
    return toInstance(instance, type, region?.site_type ?? CORE)
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
  ctx: RequestContext,
  images: DeployImages,
  input: CreateInstanceBody,
  type: ComputeTypeRow | undefined,
  errors: ErrorCollector,
): Promise<Deployment | undefined> {
  if (input.image === undefined || input.image === null || input.image === '') return undefined
  const image = await images.find(ctx, input.image)
  if (image === undefined) {
    errors.add('Image not found', 'image')
    return undefined
  }
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
  ctx: RequestContext,
  ids: InstanceIds,
  input: UpdateInstanceBody,
): Promise<Instance> {
  const row = await inContextTransaction(ctx, async (tx) => {
    const instance = await accessInstance(tx, ids, 'read_write')
    if (input.label !== undefined && input.label !== instance.label) {
      if (await repo.findInstanceByLabel(tx.db, tx.actor.accountId, input.label)) throw labelTaken()
    }
    const now = nowTimestamp(tx.clock)
    let next: InstanceRow
    try {
      next = await repo.updateInstance(tx.db, instance.id, {
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
    await recordEvents(tx.db, [buildEvent(tx.actor, 'compute_update', onInstance(next), now)])
    return next
  })
  return renderInstance(ctx.db, row)
}

/** Deletes the instance with its disks, profiles and interfaces (which frees their subnets). */
export async function deleteInstance(ctx: RequestContext, ids: InstanceIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const instance = await accessInstance(tx, ids, 'read_write')
    await repo.deleteInstance(tx.db, instance.id)
    await releasePublicAddresses(tx.db, instance.region, instance.ipv4)
    if (instance.stackscript_id !== null) await countScriptDeployment(tx, instance.stackscript_id, -1)
    await deleteEntityGrants(tx.db, 'compute', instance.id)
    const parts = finishedOnInstance(instance)
    await recordEvents(tx.db, [buildEvent(tx.actor, 'compute_delete', parts, nowTimestamp(tx.clock))])
  })
}
