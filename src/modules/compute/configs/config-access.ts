import type { RequestContext } from '../../../common/context.ts'
import { foundOrNotFound } from '../../../common/errors.ts'
import type { Permission } from '../../grants/grant-types.ts'
import { accessInstance, type InstanceIds } from '../instances/instance-access.ts'
import type { InstanceRow } from '../instances/instances.table.ts'
import { findInstanceConfig } from './configs.repository.ts'
import type { ConfigRow } from './configs.table.ts'

export interface ConfigIds extends InstanceIds {
  configId: number
}

export interface InstanceConfig {
  instance: InstanceRow
  config: ConfigRow
}

/**
 * The one way to reach a config profile: its instance as `accessInstance` gives it (in the account,
 * with `permission`, locked for a write), then the profile among the instance's (404 otherwise).
 * Exported by `configs.service.ts`; kept apart so the interfaces service can use it too.
 */
export async function accessConfig(
  ctx: RequestContext,
  { instanceId, configId }: ConfigIds,
  permission: Permission,
): Promise<InstanceConfig> {
  const instance = await accessInstance(ctx, { instanceId }, permission)
  return { instance, config: foundOrNotFound(await findInstanceConfig(ctx.db, instance.id, configId)) }
}
