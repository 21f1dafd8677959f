import { loadConfig, SETTINGS, type SettingFlag } from '../config.ts'
import { startServer } from '../server.ts'
import { stopGracefully, watchStartingScript } from '../startup/shutdown.ts'
import { settingValues, type Values } from './command.ts'

export async function run(values: Values): Promise<void> {
  const config = loadConfig(process.env, settingValues(values, Object.keys(SETTINGS) as SettingFlag[]))
  const npmScript = watchStartingScript()
  const app = await startServer(config)
  stopGracefully(app, app.log, { npmScript: npmScript ?? null })
}
