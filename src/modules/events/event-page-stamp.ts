import { sql } from 'kysely'
import { CREDENTIALS_COUNTER, counterColumn } from '../../db/change-counters.ts'
import { type Db, postgresPoolOf } from '../../db/connect.ts'
import { defineShaped, runPrepared, stableSlot } from '../../db/prepared.ts'

/** What decides whether an account's kept event pages still hold (events.service.ts). */
export interface EventPageStamp {
  /** The account's events version (`event_versions`, moved by every change to its events). */
  version: number
  /** The credentials counter, read in the same statement (confirmed-read.ts). */
  credentials: number | undefined
}

const statements = defineShaped('event page stamp', (db, _shape: Record<string, never>, dialect) => {
  const account = stableSlot<number>(dialect, 'account')
  const credentials = counterColumn(CREDENTIALS_COUNTER).as('credentials')
  return {
    one: db
      .selectNoFrom([
        sql<number>`coalesce((select value from event_versions where account_id = ${account}), 0)`.as(
          'version',
        ),
        credentials,
      ])
      .compile(),
    // PostgreSQL: the accounts of every request of an event-loop turn, in one statement.
    many: sql<{ account: number; version: number; credentials: number | null }>`select a.account,
        coalesce(v.value, 0) as version, ${counterColumn(CREDENTIALS_COUNTER)} as credentials
      from unnest(${stableSlot<number[]>(dialect, 'accounts')}::bigint[]) as a(account)
      left join event_versions v on v.account_id = a.account`.compile(db),
    // The account's first event to leave the 90-day window: the first entry of its index of
    // events by time from there. Ordered by that index's columns, not as min(created): PostgreSQL
    // plans a connection's statement once (docs/decisions.md), and on a nearly empty table it
    // planned the aggregate over another index of the account, reading every one of its events.
    oldest: db
      .selectNoFrom(
        sql<string | null>`(select created from events where account_id = ${account}
          and created >= ${stableSlot<string>(dialect, 'since')} order by account_id, created limit 1)`.as(
          'oldest',
        ),
      )
      .compile(),
  }
})

type Waiter = { resolve: (stamp: EventPageStamp) => void; reject: (error: unknown) => void }

/**
 * PostgreSQL: one read for the accounts of every request that asked in an event-loop turn, made
 * in the turn's check phase, so after each of those requests started (as the change counters'
 * read, db/change-counters.ts): one round trip for them all instead of one each.
 */
class TurnStamps {
  readonly #db: Db
  #asked = new Map<number, Waiter[]>()

  constructor(db: Db) {
    this.#db = db
  }

  of(accountId: number): Promise<EventPageStamp> {
    return new Promise((resolve, reject) => {
      const first = this.#asked.size === 0
      const waiters = this.#asked.get(accountId)
      if (waiters === undefined) this.#asked.set(accountId, [{ resolve, reject }])
      else waiters.push({ resolve, reject })
      if (first) setImmediate(() => this.#read())
    })
  }

  async #read(): Promise<void> {
    const asked = this.#asked
    this.#asked = new Map()
    try {
      const { rows } = await runPrepared(this.#db, statements(this.#db, {}).many, {
        accounts: [...asked.keys()],
      })
      for (const row of rows) {
        const stamp = { version: Number(row.version), credentials: row.credentials ?? undefined }
        for (const waiter of asked.get(Number(row.account)) ?? []) waiter.resolve(stamp)
        asked.delete(Number(row.account))
      }
      if (asked.size > 0) throw new Error('the event page stamps missed an account')
    } catch (error) {
      for (const waiters of asked.values()) for (const waiter of waiters) waiter.reject(error)
    }
  }
}

const turnStamps = new WeakMap<Db, TurnStamps>()

/** The account's events version and the credentials counter, as of a read made after this call. */
export async function readEventPageStamp(db: Db, accountId: number): Promise<EventPageStamp> {
  if (postgresPoolOf(db) !== undefined) {
    let stamps = turnStamps.get(db)
    if (stamps === undefined) {
      stamps = new TurnStamps(db)
      turnStamps.set(db, stamps)
    }
    return stamps.of(accountId)
  }
  const [row] = (await runPrepared(db, statements(db, {}).one, { account: accountId })).rows
  if (row === undefined) throw new Error('the event page stamp returned no row')
  return { version: Number(row.version), credentials: row.credentials ?? undefined }
}

/** The account's oldest event created at or after `since`; null when there is none. */
export async function oldestEventSince(db: Db, accountId: number, since: string): Promise<string | null> {
  const [row] = (await runPrepared(db, statements(db, {}).oldest, { account: accountId, since })).rows
  return row?.oldest ?? null
}
