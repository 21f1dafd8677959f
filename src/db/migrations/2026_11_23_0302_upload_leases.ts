import type { Kysely } from 'kysely'

/**
 * An upload's claim on its URL becomes a lease: the process streaming the data renews it, and a
 * claim whose process died (a crash, kill -9) lapses, so the URL can take the data again.
 * `upload_lease_owner` tells one claim from the next. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').addColumn('upload_lease_owner', 'text').execute()
  await db.schema.alterTable('images').addColumn('upload_lease_expiry', 'timestamp').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').dropColumn('upload_lease_expiry').execute()
  await db.schema.alterTable('images').dropColumn('upload_lease_owner').execute()
}
