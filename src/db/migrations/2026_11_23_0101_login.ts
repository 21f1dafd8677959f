import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely'
import { isPostgres, notNull, withId } from './helpers.ts'

/**
 * The login service: OAuth clients of an account, users' passwords, authorization codes and
 * refresh tokens, browser sessions of the login pages and the failed-attempt counters that lock
 * out guessing. Every secret is stored only as a hash. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const userId = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade')

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('label', 'text', notNull)
    .addColumn('redirect_uri', 'text', notNull)
    .addColumn('public', 'boolean', notNull)
    .addColumn('secret_hash', 'text', notNull)
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('thumbnail_url', 'text')
    .addColumn('created', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('oauth_clients_account')
    .on('oauth_clients')
    .columns(['account_id', 'id'])
    .execute()

  await db.schema
    .createTable('user_passwords')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('password_hash', 'text', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .execute()

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', userId)
    .addColumn('authorized_app_id', 'bigint', (c) =>
      c.notNull().references('authorized_apps.id').onDelete('cascade'),
    )
    .addColumn('redirect_uri', 'text', notNull)
    .addColumn('scopes', 'text', notNull)
    .addColumn('code_challenge', 'text')
    .addColumn('code_challenge_method', 'text')
    .addColumn('expiry', 'timestamp', notNull)
    .execute()

  await withId(db, db.schema.createTable('oauth_refresh_tokens'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', userId)
    .addColumn('authorized_app_id', 'bigint', (c) =>
      c.notNull().references('authorized_apps.id').onDelete('cascade'),
    )
    .addColumn('scopes', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('expiry', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('oauth_refresh_tokens_app')
    .on('oauth_refresh_tokens')
    .column('authorized_app_id')
    .execute()

  await withId(db, db.schema.createTable('login_sessions'))
    .addColumn('secret_digest', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', userId)
    /** `two_factor` until the second step is passed, then `authenticated`. */
    .addColumn('stage', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('expiry', 'timestamp', notNull)
    .execute()
  await db.schema.createIndex('login_sessions_user').on('login_sessions').column('user_id').execute()

  await db.schema
    .createTable('login_throttles')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', notNull)
    .addColumn('window_start', 'timestamp', notNull)
    .addColumn('locked_until', 'timestamp')
    .execute()

  // A deleted or changed client ends its tokens: the token cache must see it (SQLite only).
  if (!isPostgres(db)) {
    for (const event of ['update', 'delete']) {
      await sql
        .raw(
          `create trigger oauth_clients_${event}_auth after ${event} on oauth_clients begin update change_counters set value = value + 1 where name = 'auth'; end`,
        )
        .execute(db)
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'login_throttles',
    'login_sessions',
    'oauth_refresh_tokens',
    'oauth_codes',
    'user_passwords',
    'oauth_clients',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
