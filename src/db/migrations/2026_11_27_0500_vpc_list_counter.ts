import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * A change counter for the VPC pages kept as sent (common/rendered-page-cache.ts): `vpcs` moves on
 * every change to what a VPC's JSON shows, its row, its subnets and the interfaces attached to
 * them (`linodes`, `active`), by any process or SQL client. Frozen once released.
 *
 * On PostgreSQL the counter moves once per transaction, as it commits (a deferred trigger): the
 * counter's row is then locked from the commit's start to its end, not from the first change on,
 * so concurrent VPC writes wait for each other only while they commit.
 */

const COUNTER = 'vpcs'
const TABLES = ['vpcs', 'subnets', 'compute_interfaces']

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into change_counters (name, value) values (${COUNTER}, 0)`.execute(db)
  if (isPostgres(db)) {
    // A transaction-local setting remembers that this transaction has moved the counter already.
    await sql`create function bump_change_counter_at_commit() returns trigger language plpgsql as $$
      begin
        if coalesce(current_setting('cloudplane.bumped_' || tg_argv[0], true), '') = '' then
          perform set_config('cloudplane.bumped_' || tg_argv[0], 'yes', true);
          update change_counters set value = value + 1 where name = tg_argv[0];
        end if;
        return null;
      end
    $$`.execute(db)
  }
  for (const table of TABLES) {
    if (isPostgres(db)) {
      await sql
        .raw(
          `create constraint trigger ${table}_vpc_page_counter after insert or update or delete on ${table} deferrable initially deferred for each row execute function bump_change_counter_at_commit('${COUNTER}')`,
        )
        .execute(db)
      continue
    }
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(
          `create trigger ${table}_${event}_vpc_page_counter after ${event} on ${table} begin update change_counters set value = value + 1 where name = '${COUNTER}'; end`,
        )
        .execute(db)
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    if (isPostgres(db)) {
      await sql.raw(`drop trigger if exists ${table}_vpc_page_counter on ${table}`).execute(db)
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql.raw(`drop trigger if exists ${table}_${event}_vpc_page_counter`).execute(db)
      }
    }
  }
  if (isPostgres(db)) await sql`drop function if exists bump_change_counter_at_commit()`.execute(db)
  await sql`delete from change_counters where name = ${COUNTER}`.execute(db)
}
