import type { Kysely } from 'kysely'

/**
 * Indexes that keep the event list's cost flat as an account's events grow. A page walks an
 * index in the list's order (the filter's equality columns, then the order column, then `id`)
 * and stops after one page; the count for `results` reads one index only. Before, a filter on
 * `action` or `read`, or on `entity.type` ordered by id, sorted or looked up every row of the
 * account. Frozen once released.
 */
const INDEXES: Array<[string, string[]]> = [
  // `action` filtered, by created; and the covering count of an `action` filter.
  ['events_account_action_created', ['account_id', 'action', 'created', 'id']],
  // `read` filtered, by id (the default order) and by created; the covering count of `read`.
  ['events_account_read_id', ['account_id', 'read', 'id']],
  ['events_account_read_created', ['account_id', 'read', 'created', 'id']],
  // `entity.type` filtered (or ordered), by id.
  ['events_account_type_id', ['account_id', 'entity_type', 'id']],
  // The covering count of an entity's events (`entity.type` and `entity.id`).
  ['events_account_entity_created', ['account_id', 'entity_type', 'entity_id', 'created', 'id']],
  // Ordered by `entity.id` without a type.
  ['events_account_entity_id', ['account_id', 'entity_id', 'id']],
]

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of INDEXES) {
    await db.schema.createIndex(name).on('events').columns(columns).execute()
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute()
}
