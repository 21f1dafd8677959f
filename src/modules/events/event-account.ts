import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { OrderTerm } from '../../common/pagination.ts'
import type { SqlDialect } from '../../db/dialects/dialect.ts'
import { stableSlot } from '../../db/prepared.ts'

/**
 * The account of an event page, written so that PostgreSQL's one (generic) plan walks an index that
 * begins with the account, whatever its statistics say.
 *
 * A generic plan weighs `account_id = $1` as one account among those the statistics saw. With few
 * accounts (one large, a few small: every test database, and young installations) that is most of
 * the table, and an equality makes the account a constant of the ORDER BY, so the primary key
 * serves the id order as well as an account's index: the plan walks the primary key backwards with
 * the account as a filter. A small account's page then reads every newer event of the others (a
 * second and more for 1,000 events beside an account of 1,000,000), and a filtered page reads the
 * account's other kinds of events (three rows for each one kept, for one action of three).
 *
 * As `= any(array[$1])` the account is still searched on an index's first column and weighed
 * the same, but no longer a constant: the page orders by the account first (`accountFirst`), an
 * order only indexes that begin with the account give, each with the filter's columns next. SQLite
 * keeps the equality, and its plans (see event-list-plans.test.ts).
 */
export function ofAccount(dialect: SqlDialect): RawBuilder<SqlBool> {
  const account = stableSlot<number>(dialect, 'account')
  return dialect === 'postgres'
    ? sql<SqlBool>`events.account_id = any(array[${account}]::bigint[])`
    : sql<SqlBool>`events.account_id = ${account}`
}

/** The page's order, on PostgreSQL after the account (`ofAccount`), in the order's direction. */
export function accountFirst(order: readonly OrderTerm[], dialect: SqlDialect): OrderTerm[] {
  const first = order[0]
  if (dialect !== 'postgres' || first === undefined) return [...order]
  return [{ expression: sql.ref('events.account_id'), direction: first.direction }, ...order]
}
