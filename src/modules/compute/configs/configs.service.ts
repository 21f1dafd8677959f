import { sql } from 'kysely'
import { badRequest, ErrorCollector, notFound } from '../../../common/errors.ts'
import type { PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { type Clock, nowTimestamp } from '../../../common/time.ts'
import { compileFilter, type FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import { recordEvent } from '../../events/events.repository.ts'
import { computeEvent, configEntity } from '../compute-events.ts'
import { listInstanceDisks } from '../disks/disks.repository.ts'
import { instanceFor, isBootedConfig } from '../instances/instance-access.ts'
import { updateInstance } from '../instances/instances.repository.ts'
import type { InstanceRow } from '../instances/instances.table.ts'
import { listConfigInterfaces } from '../interfaces/interfaces.repository.ts'
import type { InterfaceInput } from '../interfaces/interfaces.schemas.ts'
import {
  applyInterfaceList,
  type InterfaceListPlan,
  interfacesOfConfigs,
  planInterfaceList,
} from '../interfaces/interfaces.service.ts'
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

/** Config profiles can be filtered by label. */
const CONFIG_FILTERS: FilterSpec = { label: { column: 'label', type: 'string' } }

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

export async function listConfigs(
  db: Db,
  actor: Actor,
  instanceId: number,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<Config>> {
  const compiled = compileFilter(filter, CONFIG_FILTERS, dialectOf(db))
  const instance = await instanceFor(db, actor, instanceId, 'read_only')
  const order = [
    ...(compiled.order ? [compiled.order] : []),
    { expression: sql.ref('id'), direction: compiled.order?.direction ?? 'asc' } as const,
  ]
  const rows = await repo.pageInstanceConfigs(db, instance.id, page, compiled.where, order)
  return { ...rows, data: await render(db, rows.data) }
}

export async function getConfig(db: Db, actor: Actor, instanceId: number, configId: number): Promise<Config> {
  const instance = await instanceFor(db, actor, instanceId, 'read_only')
  const row = await repo.findInstanceConfig(db, instance.id, configId)
  if (row === undefined) throw notFound()
  const [config] = await render(db, [row])
  return config as Config
}

/**
 * Writes a new profile with its interfaces (also used by instance create, which passes the
 * interfaces it already planned). The caller holds the instance's lock and records events.
 */
export async function insertConfigWithInterfaces(
  trx: Db,
  actor: Actor,
  instance: InstanceRow,
  input: CreateConfigBody,
  now: string,
  errors: ErrorCollector,
  planned?: InterfaceListPlan,
): Promise<ConfigRow> {
  const devices = await checkDevices(trx, instance, input.devices, input.initrd, errors)
  const interfaces =
    planned ??
    (await planInterfaceList(
      trx,
      actor,
      instance,
      [],
      (input.interfaces ?? []) as InterfaceInput[],
      'interfaces',
      errors,
    ))
  errors.throwIfAny()
  const row = await repo.insertConfig(trx, {
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
  await applyInterfaceList(trx, instance, row, interfaces)
  return row
}

export async function createConfig(
  db: Db,
  clock: Clock,
  actor: Actor,
  instanceId: number,
  input: CreateConfigBody,
): Promise<Config> {
  const row = await inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, instanceId, 'read_write')
    const now = nowTimestamp(clock)
    const config = await insertConfigWithInterfaces(trx, actor, instance, input, now, new ErrorCollector())
    await recordEvent(
      trx,
      computeEvent(actor, 'compute_config_create', instance, now, {
        secondary: configEntity(instance.id, config),
        status: 'notification',
      }),
    )
    return config
  })
  const [config] = await render(db, [row])
  return config as Config
}

/** Fields left out keep their values; `interfaces`, when sent, is the profile's whole new list. */
export async function updateConfig(
  db: Db,
  clock: Clock,
  actor: Actor,
  instanceId: number,
  configId: number,
  input: UpdateConfigBody,
): Promise<Config> {
  const row = await inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, instanceId, 'read_write')
    const config = await repo.findInstanceConfig(trx, instance.id, configId)
    if (config === undefined) throw notFound()
    const errors = new ErrorCollector()
    const devices = await checkDevices(trx, instance, input.devices, input.initrd, errors)
    const interfaces =
      input.interfaces === undefined
        ? undefined
        : await planInterfaceList(
            trx,
            actor,
            instance,
            await listConfigInterfaces(trx, config.id),
            (input.interfaces ?? []) as InterfaceInput[],
            'interfaces',
            errors,
          )
    errors.throwIfAny()
    const now = nowTimestamp(clock)
    const next = await repo.updateConfig(trx, config.id, {
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
    if (interfaces !== undefined) await applyInterfaceList(trx, instance, next, interfaces)
    await recordEvent(
      trx,
      computeEvent(actor, 'compute_config_update', instance, now, {
        secondary: configEntity(instance.id, next),
        status: 'notification',
      }),
    )
    return next
  })
  const [config] = await render(db, [row])
  return config as Config
}

/** The profile a running instance was booted from cannot be deleted. */
export async function deleteConfig(
  db: Db,
  clock: Clock,
  actor: Actor,
  instanceId: number,
  configId: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, instanceId, 'read_write')
    const config = await repo.findInstanceConfig(trx, instance.id, configId)
    if (config === undefined) throw notFound()
    if (isBootedConfig(instance, config.id)) {
      throw badRequest(
        'The config profile a running Compute was booted from cannot be deleted; shut it down first',
      )
    }
    await repo.deleteConfig(trx, config.id)
    const now = nowTimestamp(clock)
    if (instance.booted_config_id === config.id) {
      await updateInstance(trx, instance.id, { booted_config_id: null })
    }
    await recordEvent(
      trx,
      computeEvent(actor, 'compute_config_delete', instance, now, {
        secondary: configEntity(instance.id, config),
        status: 'notification',
      }),
    )
  })
}
