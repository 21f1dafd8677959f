import { setRegionStatus } from '../modules/regions/regions.repository.ts'
import { say, UsageError, type Values } from './command.ts'
import { withDatabase } from './database.ts'

/** Marks a region `outage` (or `ok` again); every server process sees it on its next request. */
export async function run(values: Values, [id, status]: string[]): Promise<void> {
  if (id === undefined || (status !== 'outage' && status !== 'ok')) {
    throw new UsageError('region status needs <region-id> and outage or ok')
  }
  const found = await withDatabase('region status', values, (db) => setRegionStatus(db, id, status))
  if (!found) throw new UsageError(`no region "${id}" in the catalogue`)
  say(`region ${id} is now ${status}`)
}
