import type { Db } from '../../../db/connect.ts'
import { deleteRows, insertRow, rowsIn, rowsOf, updateRow } from '../../../db/rows.ts'
import type { InterfaceRow, InterfaceRowUpdate, NewInterfaceRow } from './interfaces.table.ts'

export const listConfigInterfaces = (db: Db, configId: number): Promise<InterfaceRow[]> =>
  rowsOf(db, 'compute_interfaces', { config_id: configId }).orderBy('position').execute()

/** The interfaces of several profiles in one query (a page of configs). */
export const listInterfacesOfConfigs = (db: Db, configIds: readonly number[]) =>
  rowsIn(db, 'compute_interfaces', 'config_id', configIds, ['config_id', 'position'])

export const listRangesOfInterfaces = (db: Db, interfaceIds: readonly number[]) =>
  rowsIn(db, 'compute_interface_ranges', 'interface_id', interfaceIds, ['interface_id', 'position'])

/** What other instances hold in a subnet: their addresses and routed ranges. */
export async function listSubnetHoldings(
  db: Db,
  subnetId: number,
  exceptInstanceId: number,
): Promise<{ addresses: string[]; ranges: string[] }> {
  const addresses = await db
    .selectFrom('compute_interfaces')
    .select('ipv4_vpc')
    .where('subnet_id', '=', subnetId)
    .where('instance_id', '<>', exceptInstanceId)
    .execute()
  const ranges = await db
    .selectFrom('compute_interface_ranges as r')
    .innerJoin('compute_interfaces as i', 'i.id', 'r.interface_id')
    .select('r.range')
    .where('i.subnet_id', '=', subnetId)
    .where('i.instance_id', '<>', exceptInstanceId)
    .execute()
  return {
    addresses: addresses.flatMap((a) => (a.ipv4_vpc === null ? [] : [a.ipv4_vpc])),
    ranges: ranges.map((r) => r.range),
  }
}

export const insertInterface = (db: Db, row: NewInterfaceRow) => insertRow(db, 'compute_interfaces', row)

export const updateInterface = (db: Db, id: number, values: InterfaceRowUpdate) =>
  updateRow(db, 'compute_interfaces', { id }, values)

export async function deleteInterfaces(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return
  await db.deleteFrom('compute_interfaces').where('id', 'in', ids).execute()
}

/** A new primary clears the profile's old one (docs/service-facts.md#config-interfaces). */
export async function clearPrimary(db: Db, configId: number, exceptId: number | null): Promise<void> {
  let query = db
    .updateTable('compute_interfaces')
    .set({ is_primary: false })
    .where('config_id', '=', configId)
    .where('is_primary', '=', true)
  if (exceptId !== null) query = query.where('id', '<>', exceptId)
  await query.execute()
}

export async function replaceRanges(db: Db, interfaceId: number, ranges: readonly string[]): Promise<void> {
  await deleteRows(db, 'compute_interface_ranges', { interface_id: interfaceId })
  if (ranges.length === 0) return
  await db
    .insertInto('compute_interface_ranges')
    .values(ranges.map((range, position) => ({ interface_id: interfaceId, position, range })))
    .execute()
}

/** Each interface at the position of its id in `ids` (eth0 first). */
export async function setPositions(db: Db, ids: readonly number[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await db.updateTable('compute_interfaces').set({ position }).where('id', '=', id).execute()
  }
}

/** Keeps eth order contiguous after a removal. */
export async function closePositionGap(db: Db, configId: number, removedPosition: number): Promise<void> {
  await db
    .updateTable('compute_interfaces')
    .set((eb) => ({ position: eb('position', '-', 1) }))
    .where('config_id', '=', configId)
    .where('position', '>', removedPosition)
    .execute()
}
