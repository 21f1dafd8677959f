import { badRequest } from '../../../common/errors.ts'
import { type Clock, nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import { recordEvent } from '../../events/events.repository.ts'
import { computeEvent, configEntity } from '../compute-events.ts'
import { findInstanceConfig, listInstanceConfigs } from '../configs/configs.repository.ts'
import type { ConfigRow } from '../configs/configs.table.ts'
import { instanceFor } from './instance-access.ts'
import { setActiveConfig, updateInstance } from './instances.repository.ts'
import type { InstanceRow } from './instances.table.ts'

/**
 * Power actions. Each transition completes within the request (booting → running, shutting_down →
 * offline), so the status and the interfaces' `active` flags change at once and a finished event
 * records it. A running instance's interfaces are those of the profile it booted.
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
  db: Db,
  clock: Clock,
  actor: Actor,
  instanceId: number,
  configId: number | null | undefined,
  action: 'compute_boot' | 'compute_reboot',
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, instanceId, 'read_write')
    if (action === 'compute_boot' && instance.status === 'running') {
      throw badRequest('This Compute is already running; reboot it to use another config profile')
    }
    const config = await bootConfig(trx, instance, configId)
    const now = nowTimestamp(clock)
    const next = await updateInstance(trx, instance.id, {
      status: 'running',
      booted_config_id: config.id,
      updated: now,
    })
    await setActiveConfig(trx, instance.id, config.id)
    await recordEvent(
      trx,
      computeEvent(actor, action, next, now, { secondary: configEntity(instance.id, config) }),
    )
  })
}

export const bootInstance = (db: Db, clock: Clock, actor: Actor, id: number, configId?: number | null) =>
  start(db, clock, actor, id, configId, 'compute_boot')

/** Reboots into the named profile or the last booted one; an offline instance is simply booted. */
export const rebootInstance = (db: Db, clock: Clock, actor: Actor, id: number, configId?: number | null) =>
  start(db, clock, actor, id, configId, 'compute_reboot')

/** Shutting down an instance that is already off changes nothing. */
export async function shutdownInstance(db: Db, clock: Clock, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, id, 'read_write')
    if (instance.status === 'offline') return
    const now = nowTimestamp(clock)
    const next = await updateInstance(trx, instance.id, { status: 'offline', updated: now })
    await setActiveConfig(trx, instance.id, null)
    await recordEvent(trx, computeEvent(actor, 'compute_shutdown', next, now))
  })
}
