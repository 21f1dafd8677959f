import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { GrantEntityType } from './grant-types.ts'

/**
 * A SQL condition that keeps only the entities a restricted user holds a grant on, for list
 * queries. `userId` may be a prepared statement's slot. Repositories of every domain use it; the
 * rule itself (who is restricted) stays with the caller.
 */
export function grantedEntities(
  type: GrantEntityType,
  idColumn: string,
  userId: number | RawBuilder<number>,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(idColumn)} in (select entity_id from entity_grants where user_id = ${userId} and entity_type = ${type})`
}

/** The grant condition of a list for a restricted user; none (all of the account's) otherwise. */
export function grantRestriction(
  type: GrantEntityType,
  idColumn: string,
  restrictedUserId: number | null,
): RawBuilder<SqlBool> | undefined {
  return restrictedUserId === null ? undefined : grantedEntities(type, idColumn, restrictedUserId)
}
