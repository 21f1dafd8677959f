import type { Kysely } from 'kysely'
import { notNull, withId } from './helpers.ts'

/**
 * Limits that keep one account from using up what everyone shares: an operator-raisable limit of
 * instances per account, public addresses that return to their region's pool when freed, and a
 * record of the SMS codes sent (for cooldowns and daily caps). Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_limits').addColumn('instances', 'integer').execute()

  // Host numbers given back by deleted instances, handed out again before the pool grows.
  await db.schema
    .createTable('compute_ipv4_free')
    .addColumn('region', 'text', notNull)
    .addColumn('host', 'bigint', notNull)
    .addPrimaryKeyConstraint('compute_ipv4_free_pk', ['region', 'host'])
    .execute()

  await withId(db, db.schema.createTable('phone_code_sends'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('phone_number', 'text', notNull)
    .addColumn('sent', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('phone_code_sends_user')
    .on('phone_code_sends')
    .columns(['user_id', 'sent'])
    .execute()
  await db.schema
    .createIndex('phone_code_sends_number')
    .on('phone_code_sends')
    .columns(['phone_number', 'sent'])
    .execute()
  await db.schema.createIndex('phone_code_sends_sent').on('phone_code_sends').columns(['sent']).execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('phone_code_sends').execute()
  await db.schema.dropTable('compute_ipv4_free').execute()
  await db.schema.alterTable('account_limits').dropColumn('instances').execute()
}
