import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { badRequest } from '../../../common/errors.ts'
import { nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { buildEvent } from '../../events/event-builder.ts'
import { recordEvent } from '../../events/events.service.ts'
import { configEntity, finishedOnInstance } from '../compute-events.ts'
import { findInstanceConfig, listInstanceConfigs } from '../configs/configs.repository.ts'
import type { ConfigRow } from '../configs/configs.table.ts'
import { accessInstance, type InstanceIds } from './instance-access.ts'
import { assertNotBusy, instanceWorkSeconds, scheduleInstanceWork } from './instance-work.service.ts'
import { setActiveConfig, updateInstance } from './instances.repository.ts'
import type { PowerBody } from './instances.schemas.ts'
import type { InstanceRow } from './instances.table.ts'

/**
 * Power actions. With instant work (the default) each transition completes within the request
 * (booting → running, shutting_down → offline), so the status and the interfaces' `active` flags
 * change at once and a finished event records it; with a duration set, the instance stays in the
 * transitional status until the work is done (instance-work.service.ts). A running instance's
 * interfaces are those of the profile it booted.
 */

/**
 * The profile to boot: the one named, else the only one, else the last booted (the real API's
 * rule); with several and none booted before, the caller must name one.
 */
async function bootConfig(
  db: Db,
  instance: InstanceRow,
  configId: number | null | undefined,
): Promise<ConfigRow> {
  if (configId !== undefined && configId !== null) {
    const config = await findInstanceConfig(db, instance.id, configId)
    if (config === undefined) throw badRequest('Config profile not found', 'config_id')
    return config
  }
  const configs = await listInstanceConfigs(db, instance.id)
  if (configs.length === 0) throw badRequest('This Compute has no config profile to boot')
  if (configs.length === 1) return configs[0] as ConfigRow
  const last = configs.find((c) => c.id === instance.booted_config_id)
  if (last === undefined) {
    throw badRequest('This Compute has several config profiles; name the one to boot', 'config_id')
  }
  return last
}

async function start(
  ctx: RequestContext,
  ids: InstanceIds,
  { config_id: configId }: PowerBody,
  action: 'compute_boot' | 'compute_reboot',
): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const instance = await accessInstance(tx, ids, 'read_write')
    if (action === 'compute_boot' && instance.status === 'running') {
      throw badRequest('This Compute is already running; reboot it to use another config profile')
    }
    assertNotBusy(instance)
    const config = await bootConfig(tx.db, instance, configId)
    const now = nowTimestamp(tx.clock)
    const seconds = await instanceWorkSeconds(tx.db, action)
    if (seconds > 0) {
      await scheduleInstanceWork(tx.db, tx.actor, instance, action, { seconds, configId: config.id, now })
      return
    }
    const next = await updateInstance(tx.db, instance.id, {
      status: 'running',
      booted_config_id: config.id,
      updated: now,
    })
    await setActiveConfig(tx.db, instance.id, config.id)
    const parts = finishedOnInstance(next, configEntity(instance.id, config))
    await recordEvent(tx.db, buildEvent(tx.actor, action, parts, now))
  })
}

export const bootInstance = (ctx: RequestContext, ids: InstanceIds, body: PowerBody = {}) =>
  start(ctx, ids, body, 'compute_boot')

/** Reboots into the named profile or the last booted one; an offline instance is simply booted. */
export const rebootInstance = (ctx: RequestContext, ids: InstanceIds, body: PowerBody = {}) =>
  start(ctx, ids, body, 'compute_reboot')

/** Shutting down an instance that is already off changes nothing. */
export async function shutdownInstance(ctx: RequestContext, ids: InstanceIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const instance = await accessInstance(tx, ids, 'read_write')
    if (instance.status === 'offline') return
    assertNotBusy(instance)
    const now = nowTimestamp(tx.clock)
    const seconds = await instanceWorkSeconds(tx.db, 'compute_shutdown')
    if (seconds > 0) {
      await scheduleInstanceWork(tx.db, tx.actor, instance, 'compute_shutdown', {
        seconds,
        configId: null,
        now,
      })
      return
    }
    const next = await updateInstance(tx.db, instance.id, { status: 'offline', updated: now })
    await setActiveConfig(tx.db, instance.id, null)
    await recordEvent(tx.db, buildEvent(tx.actor, 'compute_shutdown', finishedOnInstance(next), now))
  })
}
