import type { PublicContext } from '../../../common/context.ts'
import { notFound } from '../../../common/errors.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import * as repo from './types.repository.ts'
import type { ComputeType } from './types.schemas.ts'
import type { ComputeTypeRow } from './types.table.ts'

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

export async function listTypes(ctx: PublicContext, list: ListQuery): Promise<PageResult<ComputeType>> {
  return mapPage(await repo.listTypes(ctx.db, list.page, list.filter), toComputeType)
}

export async function getType(ctx: PublicContext, { typeId }: { typeId: string }): Promise<ComputeType> {
  const row = await repo.findType(ctx.db, typeId)
  if (row === undefined) throw notFound()
  return toComputeType(row)
}
