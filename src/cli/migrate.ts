import { loadConfig } from '../config.ts'
import { describeDatabase } from '../server.ts'
import { DATABASE_FLAGS, say, settingValues, type Values } from './command.ts'
import { withDatabase } from './database.ts'

export async function run(values: Values): Promise<void> {
  const where = describeDatabase(loadConfig(process.env, settingValues(values, DATABASE_FLAGS)))
  const { migrations } = await withDatabase('migrate', values, async (_db, _clock, setup) => setup)
  if (migrations.length === 0) say(`${where} is already up to date`)
  else
    say(
      `applied ${migrations.length} migration${migrations.length === 1 ? '' : 's'} to ${where}: ${migrations.join(', ')}`,
    )
}
