import { type RawBuilder, sql } from 'kysely'
import { type Db, postgresDatabaseOf, sqliteEngineOf } from './connect.ts'
import type { PostgresDatabase, SideConnection } from './dialects/postgres.ts'

/**
 * The change counters (table `change_counters`, moved by triggers on every change by any process
 * or SQL client) as caches read them: a cache entry stamped with a counter's value stays valid
 * while the counter keeps that value.
 *
 * Exact reads (`changeCounterNow`, `changeCountersNow`): one read serves every caller of an
 * event-loop turn. Callers wait for a read made after they asked (in the turn's check phase, once
 * every request whose bytes arrived in the turn's poll has asked, and after the read before it
 * returned), so whatever was committed before a request started, by anyone, is in the value it
 * gets. On PostgreSQL that read is a named prepared statement on a connection of its own, one at
 * a time: one round trip for all the requests that arrived while the previous one was under way.
 *
 * Why not LISTEN/NOTIFY alone for credentials: a notification reaches a listener some time after
 * the commit, and nothing orders it before a request that the client sends once it has the
 * writer's answer (or once its own SQL `DELETE` returned), so a cache trusting notifications could
 * serve a token revoked before the request started. Making every writer wait for every listener's
 * acknowledgement would cover cloudplane's own writes but not an operator's SQL.
 *
 * Notified reads (`notifiedChangeCounter`, PostgreSQL, the `catalogue` counter only): the value
 * announced by the counter's trigger, with no round trip, for operator data where a change made
 * by another process or SQL client may show a moment late (docs/decisions.md). This process's own
 * writes are never late: after one, the value is trusted again only once an exact read started
 * after it has returned.
 */

type Counters = ReadonlyMap<string, number>
const NO_COUNTERS: Counters = new Map()

class TurnReader {
  #next: Promise<Counters> | undefined
  #previous: Promise<unknown> = Promise.resolve()
  readonly #read: () => Promise<Counters>

  constructor(read: () => Promise<Counters>) {
    this.#read = read
  }

  all(): Promise<Counters> {
    if (this.#next !== undefined) return this.#next
    const previous = this.#previous
    const next = new Promise<Counters>((resolve) => {
      setImmediate(() => {
        void previous.then(() => {
          // Later callers wait for the next read: this one may be under way before they asked.
          this.#next = undefined
          this.#read().then(resolve, () => resolve(NO_COUNTERS))
        })
      })
    })
    this.#next = next
    this.#previous = next
    return next
  }
}

const READ_ALL = 'select name, value from change_counters'
/** A counter read not answered in this time has lost its connection. */
const STALLED_MS = 10_000

/** The exact read on PostgreSQL: a connection of its own (reopened once lost), a prepared statement. */
function postgresRead(database: PostgresDatabase, watch: CounterWatch): () => Promise<Counters> {
  let connection: Promise<SideConnection> | undefined
  const connect = () => {
    const opening: Promise<SideConnection> = database.sideConnection(() => {
      if (connection === opening) connection = undefined
    })
    opening.catch(() => {
      if (connection === opening) connection = undefined
    })
    return opening
  }
  return async () => {
    connection ??= connect()
    const current = connection
    const client = await current
    const writes = database.writes
    client.ref()
    let stalled: NodeJS.Timeout | undefined
    try {
      const result = await Promise.race([
        client.query<[string, number]>({ name: 'change_counters', text: READ_ALL, rowMode: 'array' }),
        // The reads queue one behind the other: a connection that stopped answering (a network cut
        // with no reset) is dropped, and its callers go uncached, rather than hold up every request.
        new Promise<never>((_, reject) => {
          stalled = setTimeout(() => {
            if (connection === current) connection = undefined
            client.end().catch(() => {})
            reject(new Error('the change counter read stalled'))
          }, STALLED_MS)
        }),
      ])
      const counters = new Map(result.rows)
      watch.confirm(counters, writes)
      return counters
    } finally {
      clearTimeout(stalled)
      client.unref()
    }
  }
}

/** Counters that PostgreSQL announces (see the catalogue_notify migration). */
const NOTIFIED = new Set(['catalogue'])
const CHANNEL = 'cloudplane_change_counters'
/** After a failed or lost listener, the exact read serves alone for this long before a new try. */
const RETRY_MS = 1000
/**
 * How often the listening connection must answer a query, and how long it has to. A connection cut
 * without a reset neither answers nor closes, and its announcements stop without a word: one that
 * misses a beat is dropped, and the exact read serves until a new one listens. A beat answered also
 * means the announcements sent before it arrived (they come in order on the connection).
 */
const HEARTBEAT_MS = 2000
const HEARTBEAT_TIMEOUT_MS = 3000

/** `work`, or a rejection once HEARTBEAT_TIMEOUT_MS have passed without it (the timer keeps nothing alive). */
async function within<T>(work: Promise<T>, silence: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(silence)), HEARTBEAT_TIMEOUT_MS)
        timer.unref()
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The announced counters' values, kept by a listening connection of its own: trusted while it
 * listens, and while every write of this process completed before an exact read that has
 * returned (its own notification may still be on its way). Nothing is trusted before the
 * listener's first read, nor after it lost its connection (announcements meanwhile are lost).
 */
class CounterWatch {
  readonly #database: PostgresDatabase
  readonly #values = new Map<string, number>()
  #state: 'off' | 'starting' | 'on' = 'off'
  #retryAt = 0
  /** `database.writes` as of the start of the latest exact read that returned. */
  #confirmedWrites = -1

  constructor(database: PostgresDatabase) {
    this.#database = database
  }

  value(name: string): number | undefined {
    if (this.#state !== 'on') {
      this.#start()
      return undefined
    }
    if (this.#confirmedWrites < this.#database.writes) return undefined
    return this.#values.get(name)
  }

  /** Folds in an exact read that started once this process had completed `writes` writes. */
  confirm(counters: Counters, writes: number): void {
    if (this.#state === 'off') return
    this.#raise(counters)
    if (writes > this.#confirmedWrites) this.#confirmedWrites = writes
  }

  /** Counters only move up: a value older than one already seen changes nothing. */
  #raise(counters: Iterable<[string, number]>): void {
    for (const [name, value] of counters) {
      if (NOTIFIED.has(name) && value > (this.#values.get(name) ?? -1)) this.#values.set(name, value)
    }
  }

  #start(): void {
    if (this.#state !== 'off' || Date.now() < this.#retryAt) return
    this.#state = 'starting'
    let lost = false
    let listener: SideConnection | undefined
    let heartbeat: NodeJS.Timeout | undefined
    const stop = () => {
      if (lost) return
      lost = true
      clearInterval(heartbeat)
      this.#state = 'off'
      this.#values.clear()
      this.#retryAt = Date.now() + RETRY_MS
    }
    const beat = (client: SideConnection) => {
      let answered = true
      heartbeat = setInterval(() => {
        if (!answered) return
        answered = false
        within(client.query('select 1'), 'the listener is silent').then(
          () => {
            answered = true
          },
          () => {
            stop()
            client.end().catch(() => {})
          },
        )
      }, HEARTBEAT_MS)
      heartbeat.unref()
    }
    const listen = async () => {
      listener = await this.#database.sideConnection(stop)
      const client = listener
      // Given up while it connected (see below): not used.
      if (lost) {
        await client.end()
        return
      }
      // Kept alive by its user (the server) once listening, not by itself.
      client.ref()
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema')
      const schema = rows[0]?.schema
      client.on('notification', (message) => {
        const [from, name, value] = (message.payload ?? '').split(' ')
        if (from === schema && name !== undefined) this.#raise([[name, Number(value)]])
      })
      await client.query(`listen ${CHANNEL}`)
      const writes = this.#database.writes
      const result = await client.query<[string, number]>({ text: READ_ALL, rowMode: 'array' })
      if (lost) return
      this.#raise(result.rows)
      if (writes > this.#confirmedWrites) this.#confirmedWrites = writes
      this.#state = 'on'
      client.unref()
      beat(client)
    }
    // A start that hangs (a silent connection) is given up like a silent beat, so a later one can try.
    within(listen(), 'the listener did not start').catch(() => {
      stop()
      // Not to keep the process alive: ending a silent connection may never finish.
      listener?.unref()
      listener?.end().catch(() => {})
    })
  }
}

interface Readers {
  exact: TurnReader
  watch?: CounterWatch
}

const readers = new WeakMap<Db, Readers>()

function readersFor(db: Db): Readers | undefined {
  let found = readers.get(db)
  if (found !== undefined) return found
  const engine = sqliteEngineOf(db)
  const database = postgresDatabaseOf(db)
  if (engine !== undefined) {
    found = { exact: new TurnReader(async () => engine.changeCounters()) }
  } else if (database !== undefined) {
    const watch = new CounterWatch(database)
    found = { exact: new TurnReader(postgresRead(database, watch)), watch }
  } else {
    return undefined
  }
  readers.set(db, found)
  return found
}

/** The named counter's value as of a read made after this call; undefined when not readable. */
export async function changeCounterNow(db: Db, name: string): Promise<number | undefined> {
  return (await changeCountersNow(db)).get(name)
}

/**
 * Every counter as of a read made after this call (empty when not readable): what a request reads
 * once and hands to each cache it consults (see plugins/db.ts), instead of a read per cache.
 */
export function changeCountersNow(db: Db): Promise<Counters> {
  return readersFor(db)?.exact.all() ?? Promise.resolve(NO_COUNTERS)
}

/**
 * An announced counter's value without a read (PostgreSQL; see above for how late another
 * process's change may show), or undefined where there is none to trust: the caller then reads
 * exactly (changeCountersNow).
 */
export function notifiedChangeCounter(db: Db, name: string): number | undefined {
  return readersFor(db)?.watch?.value(name)
}

/** The counter that every change to a token, user, app or account moves (their triggers). */
export const CREDENTIALS_COUNTER = 'auth'

/**
 * A counter's value as a column of a statement, read in the statement's own snapshot: a read that
 * confirms the credentials it ran under (modules/auth/confirmed-read.ts) needs no read of its own.
 */
export function counterColumn(name: string): RawBuilder<number | null> {
  return sql<number | null>`(select value from change_counters where name = ${name})`
}
