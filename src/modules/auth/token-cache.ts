import { CREDENTIALS_COUNTER, changeCounterNow } from '../../db/change-counters.ts'
import type { Db } from '../../db/connect.ts'
import type { TokenWithUser } from './tokens.repository.ts'

/**
 * Token lookups remembered between requests, but only while credentials are unchanged: each
 * entry holds the `auth` change counter read before its lookup, and any change to a token, user,
 * app or account, by any process, moves the counter (database triggers, on both engines), so the
 * next request reads the database again. The counter is read for each request after it started
 * (one read shared by the requests of an event-loop turn, see change-counters.ts), so a
 * revocation committed before a request started is never missed, whichever process or SQL client
 * made it. Expiry is still checked on every request. Nothing here is a source of truth; without a
 * readable counter nothing is cached.
 */
const MAX_ENTRIES = 10_000

interface Entry {
  stamp: number
  found: TokenWithUser
}

export class TokenCache {
  readonly #entries = new Map<string, Entry>()
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  /**
   * The remembered lookup and the counter value it was made under, not checked against the
   * counter: only for a read that checks the stamp itself, in its own statement
   * (see confirmed-read.ts).
   */
  peek(hash: string): { stamp: number; found: TokenWithUser } | undefined {
    return this.#entries.get(hash)
  }

  /**
   * `counters`: the request's change counters (plugins/db.ts), read after it started; without
   * them the counter is read here.
   */
  async lookup(
    hash: string,
    load: (hash: string) => Promise<TokenWithUser | undefined>,
    counters?: Promise<ReadonlyMap<string, number>>,
  ) {
    const stamp =
      counters === undefined
        ? await changeCounterNow(this.#db, CREDENTIALS_COUNTER)
        : (await counters).get(CREDENTIALS_COUNTER)
    if (stamp === undefined) return load(hash)
    const entry = this.#entries.get(hash)
    if (entry !== undefined && entry.stamp === stamp) return entry.found
    const found = await load(hash)
    if (found === undefined) {
      this.#entries.delete(hash)
      return undefined
    }
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear()
    this.#entries.set(hash, { stamp, found })
    return found
  }
}
