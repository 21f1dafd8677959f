import type { Db } from '../db/connect.ts'
import { getMeta, insertMetaIfAbsent } from '../db/meta.repository.ts'
import { ConfigError } from '../settings.ts'
import type { Naming } from './naming.ts'

/**
 * Records the naming on the database's first start and refuses to start with the other one: the
 * clients of a deployment, its stored tokens' scopes and its event pollers all speak one
 * vocabulary, so every process on one database must serve the same.
 */
export async function assertSameNaming(db: Db, naming: Naming): Promise<void> {
  await insertMetaIfAbsent(db, 'naming', naming)
  const stored = await getMeta(db, 'naming')
  if (stored !== undefined && stored !== naming) {
    throw new ConfigError(
      'CLOUDPLANE_NAMING',
      `is ${naming}, but this database was first served with ${stored}; start with CLOUDPLANE_NAMING=${stored}`,
    )
  }
}
