import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { compileFilter } from '../../common/x-filter.ts'
import type { SqlDialect } from '../../db/dialects/dialect.ts'
import { stableSlot } from '../../db/prepared.ts'
import { FINE, kindFilters, rangesOf } from './event-counts.ts'

/**
 * The blocks of ids a page in id order walks when its filter has a `created` range.
 *
 * Walking the id index alone, such a page passes over every event between the newest one and the
 * range, and between runs of the range wherever times do not follow ids (a restore, a clock set
 * back, events recorded late): in the worst case as many as the account holds. The tallies by
 * block of 256 ids keep the earliest and latest `created` of each kind of event in the block
 * (migration 2026_11_26_1030), so the page walks only the blocks holding the filter's kinds whose
 * times reach into the window (the retention start or the range's start, to the range's end), one
 * block after the other in the page's order, and reads the events of each over the id index. A
 * block passed over costs its tally rows (one per kind of event in it) instead of 256 events.
 *
 * The bounds are those of every event a tally ever counted (a delete leaves them wider), so no
 * block that holds an event of the window is left out: pages stay exact.
 */
export interface PageWalk {
  /** Conditions on the tally rows `b` (block `b.bucket`), one row per block to walk. */
  where: RawBuilder<SqlBool>
  /** The first id of block `b.bucket`, and the first id past it. */
  first: RawBuilder<number>
  next: RawBuilder<number>
}

/**
 * The walk of a page in id order whose filter is, at its top level, a `created` range, perhaps an
 * `id` range, and conditions on the kind of event (action, entity type, `read`: what tallies hold);
 * undefined for every other page. Slots: `account`, `windowFrom`, `windowTo` and, with an `id`
 * range, `walkFrom` and `walkTo` (`countSlots`).
 */
export function pageWalk(filter: string | null, dialect: SqlDialect): PageWalk | undefined {
  const ranges = rangesOf(filter)
  if (ranges === undefined || !ranges.ranged) return undefined
  if (ranges.orderBy !== undefined && ranges.orderBy !== 'id') return undefined
  if (!Number.isFinite(ranges.created.from) && ranges.created.to === undefined) return undefined
  const rest = Object.keys(ranges.rest).length === 0 ? undefined : JSON.stringify(ranges.rest)
  let kinds: (row: 'b' | 'd') => RawBuilder<SqlBool> | undefined
  try {
    const compiled = {
      b: compileFilter(rest, kindFilters('b'), dialect),
      d: compileFilter(rest, kindFilters('d'), dialect),
    }
    kinds = (row) => compiled[row].where
  } catch {
    // A field the tallies do not hold (`entity.id`): its own index serves the page better.
    return undefined
  }
  const at = <T>(name: string) => stableSlot<T>(dialect, name)
  // A tally row of the account's blocks (of the id range) whose kind the filter keeps and whose
  // events' times reach into the window.
  const tally = (row: 'b' | 'd') => {
    const r = (column: string) => sql.ref(`${row}.${column}`)
    const kind = kinds(row)
    const ends = ranges.created.to === undefined ? sql`` : sql` and ${r('first_created')} < ${at('windowTo')}`
    const ids =
      ranges.id === undefined
        ? sql``
        : sql` and ${r('bucket')} >= ${at('walkFrom')} and ${r('bucket')} < ${at('walkTo')}`
    return sql<SqlBool>`${r('account_id')} = ${at('account')} and ${r('scale')} = 'id256' and ${r('n')} > 0
      and ${r('last_created')} >= ${at('windowFrom')}${ends}${ids}${kind === undefined ? sql`` : sql` and ${kind}`}`
  }
  // One row per block: the block's last such tally row in the key's order. Walking the tallies' key
  // (not grouping them, which PostgreSQL would do for the whole account before the first row) keeps
  // every engine in the blocks' order, stopping with the page. OFFSET 0 keeps PostgreSQL from
  // turning the test into a join that reads the account's tallies once per row.
  const whole = dialect === 'postgres' ? sql` offset 0` : sql``
  const where = sql<SqlBool>`${tally('b')} and not exists (select 1 from event_range_tallies d
    where ${tally('d')} and d.bucket = b.bucket and (d.action, d.entity_key, d.read) > (b.action, b.entity_key, b.read)${whole})`
  return {
    where,
    first: sql<number>`b.bucket * ${sql.lit(FINE)}`,
    next: sql<number>`b.bucket * ${sql.lit(FINE)} + ${sql.lit(FINE)}`,
  }
}
