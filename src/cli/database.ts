import { AdjustableClock } from '../common/time.ts'
import { isMemoryDatabase, loadConfig } from '../config.ts'
import type { Db } from '../db/connect.ts'
import { migrations } from '../db/migrations/index.ts'
import { databaseFileMissing, describeDatabase, openDatabase, prepareConfiguredDatabase } from '../server.ts'
import type { SetupResult } from '../setup.ts'
import { DATABASE_FLAGS, say, settingValues, UsageError, type Values } from './command.ts'

/** A database this migration ran on was empty: created, not upgraded. */
const FIRST_MIGRATION = Object.keys(migrations)[0] as string

/**
 * Opens the configured database (also while a server runs on it), migrates it and loads the
 * catalogues, runs `work`, closes it. An in-memory database is refused: the command would act on
 * a database that vanishes when it exits, and print a token that works nowhere.
 */
export async function withDatabase<T>(
  command: string,
  values: Values,
  work: (db: Db, clock: AdjustableClock, setup: SetupResult) => Promise<T>,
): Promise<T> {
  const config = loadConfig(process.env, settingValues(values, DATABASE_FLAGS))
  if (isMemoryDatabase(config)) {
    throw new UsageError(
      `${command}: the database is sqlite::memory:, which lives only inside one process, so this command would act on a database that vanishes when it exits; point --database-url (or DATABASE_URL) at the server's database`,
    )
  }
  const fresh = databaseFileMissing(config)
  const db = openDatabase(config)
  if (fresh) say(`no database at ${describeDatabase(config)} yet; creating it`)
  const clock = new AdjustableClock()
  try {
    const setup = await prepareConfiguredDatabase(db, config, clock, {
      defaultAccount: false,
      onRetry: ({ number, delayMs, cause }) =>
        say(
          `cannot reach the database yet (${cause}); attempt ${number + 1} in ${(delayMs / 1000).toFixed(1)} s`,
        ),
    })
    if (setup.createdSchema) say(`created the PostgreSQL schema "${setup.createdSchema}"`)
    // A newer command on a database an older server runs on upgrades it, for good: said aloud.
    else if (setup.migrations.length > 0 && !setup.migrations.includes(FIRST_MIGRATION)) {
      say(
        `upgraded the database at ${describeDatabase(config)} to this version (${setup.migrations.join(', ')}); servers of an earlier version no longer start on it`,
      )
    }
    return await work(db, clock, setup)
  } finally {
    await db.destroy()
  }
}
