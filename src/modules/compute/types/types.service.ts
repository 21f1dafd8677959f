import { notFound } from '../../../common/errors.ts'
import { mapPage, type PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { compileFilter, type FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import * as repo from './types.repository.ts'
import type { ComputeType } from './types.schemas.ts'
import type { ComputeTypeRow } from './types.table.ts'

/** The filterable fields of the type list. */
const TYPE_FILTERS: FilterSpec = {
  class: { column: 'class', type: 'string' },
  disk: { column: 'disk', type: 'integer' },
  gpus: { column: 'gpus', type: 'integer' },
  label: { column: 'label', type: 'string' },
  memory: { column: 'memory', type: 'integer' },
  network_out: { column: 'network_out', type: 'integer' },
  transfer: { column: 'transfer', type: 'integer' },
  vcpus: { column: 'vcpus', type: 'integer' },
}

export function toComputeType(row: ComputeTypeRow): ComputeType {
  return {
    id: row.id,
    label: row.label,
    price: JSON.parse(row.price),
    region_prices: JSON.parse(row.region_prices),
    addons: JSON.parse(row.addons),
    memory: row.memory,
    disk: row.disk,
    transfer: row.transfer,
    vcpus: row.vcpus,
    gpus: row.gpus,
    network_out: row.network_out,
    class: row.class as ComputeType['class'],
    successor: row.successor,
  }
}

export async function listTypes(
  db: Db,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<ComputeType>> {
  const compiled = compileFilter(filter, TYPE_FILTERS, dialectOf(db))
  return mapPage(await repo.listTypes(db, page, compiled), toComputeType)
}

export async function getType(db: Db, id: string): Promise<ComputeType> {
  const row = await repo.findType(db, id)
  if (row === undefined) throw notFound()
  return toComputeType(row)
}
