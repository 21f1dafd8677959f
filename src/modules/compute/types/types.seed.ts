import type { Db } from '../../../db/connect.ts'
import { upsertRows } from '../../../db/rows.ts'
import { type CatalogueType, COMPUTE_TYPES } from './types.catalogue.ts'

/** Makes the type table match the catalogue (runs on every start, inside the seeding transaction). */
export async function syncComputeTypes(db: Db, types: CatalogueType[] = COMPUTE_TYPES): Promise<void> {
  const rows = types.map((type, position) => ({
    id: type.id,
    label: type.label,
    class: type.class,
    memory: type.memory,
    disk: type.disk,
    transfer: type.transfer,
    vcpus: type.vcpus,
    gpus: type.gpus,
    network_out: type.network_out,
    price: JSON.stringify(type.price),
    region_prices: JSON.stringify(type.region_prices),
    addons: JSON.stringify(type.addons),
    successor: type.successor,
    position,
  }))
  await upsertRows(db, 'compute_types', rows, ['id'])
  const ids = types.map((t) => t.id)
  if (ids.length > 0) await db.deleteFrom('compute_types').where('id', 'not in', ids).execute()
}
