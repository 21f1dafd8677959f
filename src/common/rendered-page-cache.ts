import type { FastifyReply } from 'fastify'
import type { ListQuery } from './pagination.ts'

/**
 * A caller's list pages as sent, kept so that asking again costs no statement: the page's bytes
 * are sent as they are (neither rendered, measured nor encoded again). Each page is stamped with a
 * change counter read after its request started and before its statement ran; the counter's
 * triggers move it on every change to the rows the page shows, by any process or SQL client, so a
 * page is used only while the counter still has its stamp. A page that depends on the clock (a
 * token shows while it has not expired) also holds only from the time it was rendered at until the
 * first time that would change it, so a clock moved back or forward is no stale answer either.
 */
export interface PageValidity {
  /** The counter's value read before the page was rendered. */
  stamp: number
  /** Timestamps (`YYYY-MM-DDTHH:MM:SS`): the page holds for `from <= now < until`. */
  from?: string
  until?: string | null
}

interface Entry extends PageValidity {
  body: Buffer
}

/** Distinct pages kept at most, and their bytes; past either the cache starts over. */
const MAX_ENTRIES = 2000
const MAX_BYTES = 32 * 1024 * 1024

export class RenderedPageCache {
  readonly #entries = new Map<string, Entry>()
  #bytes = 0

  /** The page kept under `key` if it still holds for this stamp and time. */
  get(key: string, stamp: number, now?: string): Buffer | undefined {
    const entry = this.#entries.get(key)
    if (entry === undefined || entry.stamp !== stamp) return undefined
    if (now !== undefined) {
      if (entry.from !== undefined && now < entry.from) return undefined
      if (entry.until != null && now >= entry.until) return undefined
    }
    return entry.body
  }

  /** Keeps a page rendered as `text`; its bytes, to be sent from now on. */
  set(key: string, text: string, validity: PageValidity): Buffer {
    const body = Buffer.from(text)
    const previous = this.#entries.get(key)
    if (previous !== undefined) this.#bytes -= previous.body.length
    if (this.#entries.size >= MAX_ENTRIES || this.#bytes + body.length > MAX_BYTES) {
      this.#entries.clear()
      this.#bytes = 0
    }
    this.#entries.set(key, { ...validity, body })
    this.#bytes += body.length
    return body
  }
}

/** A kept page's key: whose list it is (a user, an account), which page, and the filter as sent. */
export const pageKey = (owner: string | number, { page, filter }: ListQuery): string =>
  `${owner}\n${page.page}\n${page.pageSize}\n${filter ?? ''}`

/** Keeps nothing: every page is rendered from the database (CLOUDPLANE_KEPT_PAGES=off). */
class NoPages extends RenderedPageCache {
  override get(): undefined {
    return undefined
  }

  override set(_key: string, text: string): Buffer {
    return Buffer.from(text)
  }
}

const NO_PAGES = new NoPages()
const caches = new WeakMap<object, Map<string, RenderedPageCache>>()
const notKept = new WeakSet<object>()

/**
 * From now on no page of this database is kept: each is rendered by its statement, as the
 * benchmarks of the list queries need, or where an operator would rather spend no memory on them.
 */
export function stopKeepingPages(db: object): void {
  notKept.add(db)
  caches.delete(db)
}

/** Whether pages of this database are kept (CLOUDPLANE_KEPT_PAGES). */
export const keepsPages = (db: object): boolean => !notKept.has(db)

/** The pages of one list kept for one database (a process may serve several, as tests do). */
export function renderedPagesOf(db: object, list: string): RenderedPageCache {
  if (notKept.has(db)) return NO_PAGES
  let lists = caches.get(db)
  if (lists === undefined) {
    lists = new Map()
    caches.set(db, lists)
  }
  let found = lists.get(list)
  if (found === undefined) {
    found = new RenderedPageCache()
    lists.set(list, found)
  }
  return found
}

/**
 * Sends a page: its bytes as kept, or its text where it is not kept. Under a vocabulary that
 * rewrites answers, its hook rewrites text only, so the page goes as text there.
 */
export function sendPage(reply: FastifyReply, page: Buffer | string): FastifyReply {
  const type = reply.type('application/json; charset=utf-8')
  return typeof page === 'string' || reply.server.vocabulary.identity
    ? type.send(page)
    : type.send(page.toString('utf8'))
}
