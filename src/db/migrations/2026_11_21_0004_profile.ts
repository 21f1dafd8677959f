import type { ColumnDefinitionBuilder, Kysely } from 'kysely'
import { notNull, withId } from './helpers.ts'

/**
 * The profile area: SSH keys, security questions and answers, two-factor state, phone
 * verification, per-client preferences, trusted devices and login history. Secrets (TFA secrets,
 * answers, phone codes) are stored sealed with the server key; scratch codes and device secrets
 * only as digests. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const userId = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade')

  await withId(db, db.schema.createTable('ssh_keys'))
    .addColumn('user_id', 'bigint', userId)
    .addColumn('label', 'text', notNull)
    .addColumn('ssh_key', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .execute()
  await db.schema.createIndex('ssh_keys_user_id').on('ssh_keys').columns(['user_id', 'id']).execute()

  // The catalogue's own ids (seeded), not a sequence.
  await db.schema
    .createTable('security_questions')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('question', 'text', notNull)
    .execute()

  await db.schema
    .createTable('security_answers')
    .addColumn('user_id', 'bigint', userId)
    .addColumn('question_id', 'integer', (c) =>
      c.notNull().references('security_questions.id').onDelete('cascade'),
    )
    .addColumn('response_sealed', 'text', notNull)
    .addPrimaryKeyConstraint('security_answers_pk', ['user_id', 'question_id'])
    .execute()

  await db.schema
    .createTable('user_tfa')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('pending_secret_sealed', 'text')
    .addColumn('pending_expiry', 'timestamp')
    .addColumn('secret_sealed', 'text')
    .addColumn('last_time_step', 'bigint')
    .addColumn('scratch_digest', 'text')
    .execute()

  await db.schema
    .createTable('phone_verifications')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('phone_number', 'text', notNull)
    .addColumn('code_sealed', 'text', notNull)
    .addColumn('expiry', 'timestamp', notNull)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'timestamp', notNull)
    .execute()

  await db.schema
    .createTable('user_preferences')
    .addColumn('user_id', 'bigint', userId)
    .addColumn('client_key', 'text', notNull)
    .addColumn('preferences', 'text', notNull)
    .addPrimaryKeyConstraint('user_preferences_pk', ['user_id', 'client_key'])
    .execute()

  await withId(db, db.schema.createTable('trusted_devices'))
    .addColumn('user_id', 'bigint', userId)
    .addColumn('secret_digest', 'text', (c) => c.notNull().unique())
    .addColumn('created', 'timestamp', notNull)
    .addColumn('expiry', 'timestamp', notNull)
    .addColumn('last_authenticated', 'timestamp', notNull)
    .addColumn('last_remote_addr', 'text', notNull)
    .addColumn('user_agent', 'text', notNull)
    .execute()
  await db.schema
    .createIndex('trusted_devices_user_id')
    .on('trusted_devices')
    .columns(['user_id', 'id'])
    .execute()

  await withId(db, db.schema.createTable('logins'))
    .addColumn('user_id', 'bigint', userId)
    .addColumn('username', 'text', notNull)
    .addColumn('ip', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('restricted', 'boolean', notNull)
    .addColumn('datetime', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('logins_user_datetime')
    .on('logins')
    .columns(['user_id', 'datetime', 'id'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'logins',
    'trusted_devices',
    'user_preferences',
    'phone_verifications',
    'user_tfa',
    'security_answers',
    'security_questions',
    'ssh_keys',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
