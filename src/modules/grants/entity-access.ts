import type { RequestContext } from '../../common/context.ts'
import { foundOrNotFound } from '../../common/errors.ts'
import { assertEntityGrant } from './authorize.ts'
import type { GrantEntityType, Permission } from './grant-types.ts'

/**
 * The body of an entity's access function (docs/layout.md#access-check): `find` looks the entity
 * up in the caller's account, locked when it is to be written (so one entity's changes never
 * interleave); none there is a 404 before any grant is consulted; a restricted caller then needs
 * `permission` on it (403).
 */
export async function accessAccountEntity<T extends { id: number }>(
  ctx: Pick<RequestContext, 'db' | 'actor'>,
  type: GrantEntityType,
  permission: Permission,
  find: (options: { lock: boolean }) => Promise<T | undefined>,
): Promise<T> {
  const row = foundOrNotFound(await find({ lock: permission === 'read_write' }))
  await assertEntityGrant(ctx.db, ctx.actor, type, row.id, permission)
  return row
}
