import { type Db, postgresPoolOf, sqliteEngineOf } from './connect.ts'

/**
 * The change counters (table `change_counters`, moved by triggers on every change by any process
 * or SQL client) as caches read them: a cache entry stamped with a counter's value stays valid
 * while the counter keeps that value.
 *
 * One read serves every caller of an event-loop turn: callers wait for a read made after they
 * asked (in the turn's check phase, once every request whose bytes arrived in the turn's poll has
 * asked), so whatever was committed before a request started, by anyone, is in the value it gets.
 * On PostgreSQL that read is one round trip for the whole batch instead of a lookup per request.
 * Undefined when there is no such counter or it cannot be read: the caller caches nothing then.
 *
 * Why not LISTEN/NOTIFY alone on PostgreSQL: a notification reaches a listener some time after
 * the commit, and nothing orders it before a request that the client sends once it has the
 * writer's answer (or once its own SQL `DELETE` returned), so a cache trusting notifications could
 * serve a token revoked before the request started. Making every writer wait for every listener's
 * acknowledgement would cover cloudplane's own writes but not an operator's SQL. One read per
 * turn is exact for all of them and costs one round trip per batch of requests.
 */

/** Every counter by name: one read serves all the counters a request needs. */
type ReadAll = () => Promise<ReadonlyMap<string, number>>

class TurnReader {
  #batch: Promise<ReadonlyMap<string, number>> | undefined
  readonly #read: ReadAll

  constructor(read: ReadAll) {
    this.#read = read
  }

  async value(name: string): Promise<number | undefined> {
    return (await this.all()).get(name)
  }

  all(): Promise<ReadonlyMap<string, number>> {
    if (this.#batch === undefined) {
      this.#batch = new Promise<ReadonlyMap<string, number>>((resolve) => {
        setImmediate(() => {
          // Later callers start the next batch: this read may be under way before they asked.
          this.#batch = undefined
          this.#read().then(resolve, () => resolve(new Map()))
        })
      })
    }
    return this.#batch
  }
}

const readers = new WeakMap<Db, TurnReader>()

function readerFor(db: Db): TurnReader | undefined {
  let reader = readers.get(db)
  if (reader !== undefined) return reader
  const engine = sqliteEngineOf(db)
  const pool = postgresPoolOf(db)
  if (engine !== undefined) {
    reader = new TurnReader(async () => engine.changeCounters())
  } else if (pool !== undefined) {
    reader = new TurnReader(async () => {
      const result = await pool.query<{ name: string; value: string | number }>(
        'select name, value from change_counters',
      )
      return new Map(result.rows.map((row) => [row.name, Number(row.value)]))
    })
  } else {
    return undefined
  }
  readers.set(db, reader)
  return reader
}

/** The named counter's value as of a read made after this call; undefined when not readable. */
export function changeCounterNow(db: Db, name: string): Promise<number | undefined> {
  return readerFor(db)?.value(name) ?? Promise.resolve(undefined)
}

const NO_COUNTERS: ReadonlyMap<string, number> = new Map()

/**
 * Every counter as of a read made after this call (empty when not readable): what a request reads
 * once and hands to each cache it consults (see plugins/db.ts), instead of a read per cache.
 */
export function changeCountersNow(db: Db): Promise<ReadonlyMap<string, number>> {
  return readerFor(db)?.all() ?? Promise.resolve(NO_COUNTERS)
}
