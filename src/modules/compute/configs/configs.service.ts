import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { badRequest, ErrorCollector } from '../../../common/errors.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { buildEvent } from '../../events/event-builder.ts'
import { recordEvent } from '../../events/events.service.ts'
import { onConfig } from '../compute-events.ts'
import { listInstanceDisks } from '../disks/disks.repository.ts'
import { accessInstance, type InstanceIds, isBootedConfig } from '../instances/instance-access.ts'
import { updateInstance } from '../instances/instances.repository.ts'
import type { InstanceRow } from '../instances/instances.table.ts'
import type { InterfaceListPlan } from '../interfaces/interface-planner.ts'
import { listConfigInterfaces } from '../interfaces/interfaces.repository.ts'
import type { InterfaceInput } from '../interfaces/interfaces.schemas.ts'
import {
  applyInterfaceList,
  interfacesOfConfigs,
  planInterfaceList,
} from '../interfaces/interfaces.service.ts'
import { accessConfig, type ConfigIds } from './config-access.ts'
import * as repo from './configs.repository.ts'
import {
  type Config,
  type CreateConfigBody,
  DEVICE_SLOTS,
  type Device,
  type DevicesInput,
  type Helpers,
  type UpdateConfigBody,
} from './configs.schemas.ts'
import type { ConfigRow } from './configs.table.ts'

export { accessConfig, type ConfigIds } from './config-access.ts'

export const DEFAULT_HELPERS: Helpers = {
  updatedb_disabled: true,
  distro: true,
  modules_dep: true,
  network: true,
  devtmpfs_automount: true,
}

export const DEFAULT_KERNEL = 'compute/latest-64bit'

type Devices = Config['devices']

export function emptyDevices(): Devices {
  return { sda: null, sdb: null, sdc: null, sdd: null, sde: null, sdf: null, sdg: null, sdh: null }
}

export function toConfig(row: ConfigRow, interfaces: Config['interfaces']): Config {
  return {
    id: row.id,
    label: row.label,
    helpers: JSON.parse(row.helpers) as Helpers,
    kernel: row.kernel,
    comments: row.comments,
    memory_limit: row.memory_limit,
    created: row.created,
    updated: row.updated,
    root_device: row.root_device,
    devices: JSON.parse(row.devices) as Devices,
    initrd: row.initrd,
    run_level: row.run_level as Config['run_level'],
    virt_mode: row.virt_mode as Config['virt_mode'],
    interfaces,
  }
}

/** Devices may only name this instance's disks, each once; volumes do not exist here. */
async function checkDevices(
  db: Db,
  instance: InstanceRow,
  devices: DevicesInput | undefined,
  initrd: number | null | undefined,
  errors: ErrorCollector,
): Promise<Devices | undefined> {
  if (devices === undefined && (initrd === undefined || initrd === null)) return undefined
  const disks = new Set((await listInstanceDisks(db, instance.id)).map((d) => d.id))
  if (initrd !== undefined && initrd !== null && !disks.has(initrd)) errors.add('Disk not found', 'initrd')
  if (devices === undefined) return undefined
  const result = emptyDevices()
  const used = new Set<number>()
  for (const slot of DEVICE_SLOTS) {
    const device = devices[slot]
    if (device === undefined || device === null) continue
    const diskId = device.disk_id ?? null
    const volumeId = device.volume_id ?? null
    if (volumeId !== null) {
      errors.add('Volume not found', `devices.${slot}.volume_id`)
      continue
    }
    if (diskId === null) continue
    if (!disks.has(diskId)) errors.add('Disk not found', `devices.${slot}.disk_id`)
    else if (used.has(diskId))
      errors.add('A disk can be assigned to only one device', `devices.${slot}.disk_id`)
    used.add(diskId)
    result[slot] = { disk_id: diskId, volume_id: null } satisfies Device
  }
  return result
}

async function render(db: Db, rows: ConfigRow[]): Promise<Config[]> {
  const interfaces = await interfacesOfConfigs(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((row) => toConfig(row, interfaces.get(row.id) ?? []))
}

async function renderOne(db: Db, row: ConfigRow): Promise<Config> {
  const [config] = await render(db, [row])
  return config as Config
}

export async function listConfigs(
  ctx: RequestContext,
  { instanceId }: InstanceIds,
  list: ListQuery,
): Promise<PageResult<Config>> {
  const criteria = repo.configListCriteria(ctx.db, list.filter)
  const instance = await accessInstance(ctx, { instanceId }, 'read_only')
  const rows = await repo.pageInstanceConfigs(ctx.db, instance.id, list.page, criteria)
  return { ...rows, data: await render(ctx.db, rows.data) }
}

export async function getConfig(ctx: RequestContext, ids: ConfigIds): Promise<Config> {
  return renderOne(ctx.db, (await accessConfig(ctx, ids, 'read_only')).config)
}

/**
 * Writes a new profile with its interfaces (also used by instance create, which passes the
 * interfaces it already planned). The caller holds the instance's lock and records events.
 */
export async function insertConfigWithInterfaces(
  ctx: RequestContext,
  instance: InstanceRow,
  input: CreateConfigBody,
  now: string,
  errors: ErrorCollector,
  planned?: InterfaceListPlan,
): Promise<ConfigRow> {
  const devices = await checkDevices(ctx.db, instance, input.devices, input.initrd, errors)
  const interfaces =
    planned ??
    (await planInterfaceList(
      ctx,
      instance,
      [],
      (input.interfaces ?? []) as InterfaceInput[],
      'interfaces',
      errors,
    ))
  errors.throwIfAny()
  const row = await repo.insertConfig(ctx.db, {
    instance_id: instance.id,
    label: input.label,
    kernel: input.kernel ?? DEFAULT_KERNEL,
    comments: input.comments ?? '',
    memory_limit: input.memory_limit ?? 0,
    root_device: input.root_device ?? '/dev/sda',
    run_level: input.run_level ?? 'default',
    virt_mode: input.virt_mode ?? 'paravirt',
    helpers: JSON.stringify({ ...DEFAULT_HELPERS, ...input.helpers }),
    devices: JSON.stringify(devices ?? emptyDevices()),
    initrd: input.initrd ?? null,
    created: now,
    updated: now,
  })
  await applyInterfaceList(ctx.db, instance, row, interfaces)
  return row
}

export async function createConfig(
  ctx: RequestContext,
  { instanceId }: InstanceIds,
  input: CreateConfigBody,
): Promise<Config> {
  const row = await inContextTransaction(ctx, async (tx) => {
    const instance = await accessInstance(tx, { instanceId }, 'read_write')
    const now = nowTimestamp(tx.clock)
    const config = await insertConfigWithInterfaces(tx, instance, input, now, new ErrorCollector())
    await recordEvent(tx.db, buildEvent(tx.actor, 'compute_config_create', onConfig(instance, config), now))
    return config
  })
  return renderOne(ctx.db, row)
}

/**
 * Fields left out keep their values; `interfaces`, when sent as a list, is the profile's whole new
 * list. `"interfaces": null` keeps them too, as on the real service: the Go client and Terraform
 * send it on every update, and must not detach the profile's VPC interfaces by renaming it.
 */
export async function updateConfig(
  ctx: RequestContext,
  ids: ConfigIds,
  input: UpdateConfigBody,
): Promise<Config> {
  const row = await inContextTransaction(ctx, async (tx) => {
    const { instance, config } = await accessConfig(tx, ids, 'read_write')
    const errors = new ErrorCollector()
    const devices = await checkDevices(tx.db, instance, input.devices, input.initrd, errors)
    const interfaces =
      input.interfaces === undefined || input.interfaces === null
        ? undefined
        : await planInterfaceList(
            tx,
            instance,
            await listConfigInterfaces(tx.db, config.id),
            input.interfaces as InterfaceInput[],
            'interfaces',
            errors,
          )
    errors.throwIfAny()
    const now = nowTimestamp(tx.clock)
    const next = await repo.updateConfig(tx.db, config.id, {
      ...(input.label !== undefined && { label: input.label }),
      ...(input.kernel !== undefined && { kernel: input.kernel }),
      ...(input.comments !== undefined && { comments: input.comments }),
      ...(input.memory_limit !== undefined && { memory_limit: input.memory_limit }),
      ...(input.root_device !== undefined && { root_device: input.root_device }),
      ...(input.run_level !== undefined && { run_level: input.run_level }),
      ...(input.virt_mode !== undefined && { virt_mode: input.virt_mode }),
      ...(input.helpers !== undefined && {
        helpers: JSON.stringify({ ...(JSON.parse(config.helpers) as Helpers), ...input.helpers }),
      }),
      ...(devices !== undefined && { devices: JSON.stringify(devices) }),
      ...(input.initrd !== undefined && { initrd: input.initrd }),
      updated: now,
    })
    if (interfaces !== undefined) await applyInterfaceList(tx.db, instance, next, interfaces)
    await recordEvent(tx.db, buildEvent(tx.actor, 'compute_config_update', onConfig(instance, next), now))
    return next
  })
  return renderOne(ctx.db, row)
}

/** The profile a running instance was booted from cannot be deleted. */
export async function deleteConfig(ctx: RequestContext, ids: ConfigIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const { instance, config } = await accessConfig(tx, ids, 'read_write')
    if (isBootedConfig(instance, config.id)) {
      throw badRequest(
        instance.status === 'running'
          ? 'The config profile a running Compute was booted from cannot be deleted; shut it down first'
          : `The config profile a Compute is ${instance.status} with cannot be deleted; wait for it to finish`,
      )
    }
    // The create's boot names its profile in the work alone: none goes until it has booted.
    if (instance.status === 'provisioning') {
      throw badRequest(
        'A config profile cannot be deleted while its Compute is provisioning; wait for it to finish',
      )
    }
    // Rebooting into another profile, this one's interfaces stay active until the reboot ends.
    if ((await listConfigInterfaces(tx.db, config.id)).some((i) => i.active)) {
      throw badRequest(
        'A config profile with active interfaces cannot be deleted; wait for the Compute to finish or shut it down first',
      )
    }
    await repo.deleteConfig(tx.db, config.id)
    const now = nowTimestamp(tx.clock)
    if (instance.booted_config_id === config.id) {
      await updateInstance(tx.db, instance.id, { booted_config_id: null })
    }
    await recordEvent(tx.db, buildEvent(tx.actor, 'compute_config_delete', onConfig(instance, config), now))
  })
}
