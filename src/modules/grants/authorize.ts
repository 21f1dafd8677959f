import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { forbidden } from '../../common/errors.ts'
import type { Db } from '../../db/connect.ts'
import type { Actor } from '../auth/actor.ts'
import type { GlobalGrantFlag, GrantEntityType, Permission } from './grant-types.ts'
import * as repo from './grants.repository.ts'

/**
 * The one place grants are enforced (api-facts section 10). Unrestricted users pass every check;
 * a restricted user needs the `global` flag or the entity permission, else 403 `Unauthorized`.
 * Callers look the entity up within the actor's account first, so another account's entity is a
 * 404 before any grant is consulted.
 */
export async function assertGlobalGrant(db: Db, actor: Actor, flag: GlobalGrantFlag): Promise<void> {
  if (!actor.user.restricted) return
  if (!(await repo.hasGlobalGrant(db, actor.user.id, flag))) throw forbidden()
}

export async function assertEntityGrant(
  db: Db,
  actor: Actor,
  type: GrantEntityType,
  entityId: number,
  needed: Permission,
): Promise<void> {
  if (!actor.user.restricted) return
  const held = await repo.findEntityPermission(db, actor.user.id, type, entityId)
  if (held === undefined || (needed === 'read_write' && held !== 'read_write')) throw forbidden()
}

/** Account-level areas (users, grants of others) are for unrestricted users only. */
export function assertUnrestricted(actor: Actor): void {
  if (actor.user.restricted) throw forbidden()
}

/**
 * A SQL condition that keeps only entities the actor may see, for list queries; undefined for
 * unrestricted users (no condition at all, so their lists pay nothing).
 */
export function grantedOnly(
  actor: Actor,
  type: GrantEntityType,
  idColumn: string,
): RawBuilder<SqlBool> | undefined {
  if (!actor.user.restricted) return undefined
  return sql<SqlBool>`${sql.ref(idColumn)} in (select entity_id from entity_grants where user_id = ${actor.user.id} and entity_type = ${type})`
}

/** A restricted user who creates an entity gets `read_write` on it, as in the real API. */
export async function grantToCreator(
  db: Db,
  actor: Actor,
  type: GrantEntityType,
  entityId: number,
): Promise<void> {
  if (!actor.user.restricted) return
  await repo.setEntityPermission(db, actor.user.id, type, entityId, 'read_write')
}
