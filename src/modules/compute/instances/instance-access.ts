import type { RequestContext } from '../../../common/context.ts'
import { accessAccountEntity } from '../../grants/entity-access.ts'
import type { Permission } from '../../grants/grant-types.ts'
import { findAccountInstance } from './instances.repository.ts'
import type { InstanceRow } from './instances.table.ts'

export interface InstanceIds {
  instanceId: number
}

/**
 * The one way to reach an instance: it must be in the caller's account (404 otherwise, before any
 * grant is consulted), and the caller needs `permission` on it. Writers lock it, so one instance's
 * changes never interleave. Exported to other domains by `instances.service.ts`.
 */
export async function accessInstance(
  ctx: RequestContext,
  { instanceId }: InstanceIds,
  permission: Permission,
): Promise<InstanceRow> {
  return accessAccountEntity(ctx, 'compute', permission, (options) =>
    findAccountInstance(ctx.db, ctx.actor.accountId, instanceId, options),
  )
}

/** A profile's interfaces are active while the instance runs from it. */
export const isBootedConfig = (instance: InstanceRow, configId: number): boolean =>
  // Booting from it, running it or shutting it down: its interfaces are, or are becoming, active.
  instance.status !== 'offline' && instance.booted_config_id === configId
