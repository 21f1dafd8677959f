import type { Kysely } from 'kysely'
import { notNull, withId } from './helpers.ts'

/**
 * Images: the public catalogue (`slug` set, no account) and private images of an account (wire id
 * `private/<id>`), with what an upload needs; and the background jobs table. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('images'))
    .addColumn('slug', 'text', (c) => c.unique())
    .addColumn('account_id', 'bigint', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('label', 'text', notNull)
    .addColumn('description', 'text')
    .addColumn('created_by', 'text')
    .addColumn('type', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('size', 'integer', notNull)
    .addColumn('capabilities', 'text', notNull)
    .addColumn('is_public', 'boolean', notNull)
    .addColumn('deprecated', 'boolean', notNull)
    .addColumn('vendor', 'text')
    .addColumn('eol', 'timestamp')
    .addColumn('expiry', 'timestamp')
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    // Private images: who made it (for the events of later steps) and the upload's region.
    .addColumn('creator_user_id', 'bigint')
    .addColumn('region', 'text')
    // Upload: SHA-256 of the upload URL's secret, its state and deadline.
    .addColumn('upload_token_hash', 'text', (c) => c.unique())
    .addColumn('upload_state', 'text')
    .addColumn('upload_expiry', 'timestamp')
    // Stored data: where, how big (as stored, gzip) and the SHA-256 of the uncompressed disk.
    .addColumn('blob_key', 'text')
    .addColumn('stored_bytes', 'bigint')
    .addColumn('uncompressed_bytes', 'bigint')
    .addColumn('checksum', 'text')
    .execute()
  await db.schema.createIndex('images_account_id').on('images').columns(['account_id', 'id']).execute()
  await db.schema
    .createIndex('images_public_position')
    .on('images')
    .columns(['is_public', 'position'])
    .execute()

  await withId(db, db.schema.createTable('jobs'))
    .addColumn('kind', 'text', notNull)
    .addColumn('payload', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('run_at', 'timestamp', notNull)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamp')
    .addColumn('last_error', 'text')
    .addColumn('created', 'timestamp', notNull)
    .execute()
  await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at', 'id']).execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('jobs').execute()
  await db.schema.dropTable('images').execute()
}
