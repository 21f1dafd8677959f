import { notFound } from '../../../common/errors.ts'
import type { Db } from '../../../db/connect.ts'
import type { Actor } from '../../auth/actor.ts'
import { assertEntityGrant } from '../../grants/authorize.ts'
import type { Permission } from '../../grants/grant-types.ts'
import { findAccountInstance, lockAccountInstance } from './instances.repository.ts'
import type { InstanceRow } from './instances.table.ts'

/**
 * The instance of the actor's account (404 otherwise, before any grant is consulted) with the grant
 * the operation needs. Writers lock it, so one instance's changes never interleave.
 */
export async function instanceFor(
  db: Db,
  actor: Actor,
  id: number,
  needed: Permission,
): Promise<InstanceRow> {
  const row =
    needed === 'read_write'
      ? await lockAccountInstance(db, actor.accountId, id)
      : await findAccountInstance(db, actor.accountId, id)
  if (row === undefined) throw notFound()
  await assertEntityGrant(db, actor, 'compute', row.id, needed)
  return row
}

/** A profile's interfaces are active while the instance runs from it. */
export const isBootedConfig = (instance: InstanceRow, configId: number): boolean =>
  instance.status === 'running' && instance.booted_config_id === configId
