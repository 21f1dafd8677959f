import type { JournalOutcome, PendingEntry } from './journal-rows.ts'

/**
 * Entries waiting to be written, as bytes rather than objects: a request's entry is copied into a
 * chunk as it is pushed (numbers, then its texts as UTF-8), so the buffer holds no object and no
 * string of the request's (nothing for the main thread's collector to copy and promote while it
 * waits), and a batch crosses to the journal's thread by transfer, without being cloned.
 *
 * A chunk, entry after entry, each at a multiple of 8 bytes: 8 float64 (at, real, duration, status,
 * account, user, token, fault rule; NaN for null), a uint32 outcome, then method, path, query and
 * the two bodies, each a uint32 (0: none; odd: text of (n - 1) / 2 UTF-8 bytes, which follow,
 * padded to 4; even: value n / 2 - 1 kept aside). A long body, or one that is a value rather than
 * text (a login form's fields), is kept aside with the chunk and cloned with it; the same object
 * pushed again (a cached answer's Buffer) is kept aside once per chunk, every entry naming it by
 * its index, so the journal's thread can tell it is one body and redact and store it once.
 */
export interface EncodedChunk {
  buffer: ArrayBuffer
  /** Bytes used. */
  length: number
  count: number
  /** Values kept as they are, by index. */
  side: unknown[]
}

const CHUNK_BYTES = 512 * 1024
/**
 * Chunks kept for reuse once the journal's thread hands them back: a fresh 512 KB buffer per chunk
 * is zeroed here and counted as outside memory by both threads' collectors, which then run sooner.
 */
const SPARE_CHUNKS = 4
/**
 * Text longer than this (in UTF-16 units) is kept aside, so an entry always fits an empty chunk.
 * Kept low: cloning a long one-byte string is a plain copy, cheaper than encoding it here and
 * decoding it in the worker (a catalogue page of ~20 KB cost 79 against 93 µs per request).
 */
const INLINE_MAX = 2 * 1024
const NUMBERS = 8
/** The numbers, the outcome, five field words and the padding of each. */
const FIXED = NUMBERS * 8 + 4 + 5 * 8 + 8

const OUTCOMES: ReadonlyArray<JournalOutcome | null> = [null, 'dropped', 'client_closed']

/** At most how many bytes a field's text takes: UTF-8 spends at most 3 bytes per UTF-16 unit. */
const room = (value: unknown): number =>
  typeof value === 'string' && value.length <= INLINE_MAX
    ? value.length * 3
    : value instanceof Uint8Array && value.length <= INLINE_MAX
      ? value.length
      : 0

interface Open {
  chunk: EncodedChunk
  /** Index in `side` of each object kept aside (text is not looked up: hashing it costs a pass). */
  aside: Map<object, number>
  bytes: Uint8Array
  /** The same bytes, for Buffer's UTF-8 writer (cheaper than TextEncoder's per short text). */
  text: Buffer
  words: Uint32Array
  numbers: Float64Array
}

export class ChunkWriter {
  #chunks: EncodedChunk[] = []
  #open: Open | undefined
  #spare: ArrayBuffer[] = []

  /** Takes back the buffers of chunks written (their bytes are overwritten, never read again). */
  recycle(buffers: ArrayBuffer[]): void {
    for (const buffer of buffers) {
      if (this.#spare.length >= SPARE_CHUNKS) return
      // A transferred buffer is detached (length 0) on this side until it comes back.
      if (buffer.byteLength === CHUNK_BYTES) this.#spare.push(buffer)
    }
  }

  /** Copies an entry in; nothing of it is kept but values too long or not text. */
  add(e: PendingEntry): void {
    const need =
      FIXED + room(e.method) + room(e.path) + room(e.query) + room(e.requestBody) + room(e.responseBody)
    let open = this.#open
    if (open === undefined || open.chunk.length + need > open.bytes.length) {
      const buffer =
        (need <= CHUNK_BYTES ? this.#spare.pop() : undefined) ??
        new ArrayBuffer(Math.max(CHUNK_BYTES, (need + 7) & ~7))
      open = {
        chunk: { buffer, length: 0, count: 0, side: [] },
        aside: new Map(),
        bytes: new Uint8Array(buffer),
        text: Buffer.from(buffer),
        words: new Uint32Array(buffer),
        numbers: new Float64Array(buffer),
      }
      this.#chunks.push(open.chunk)
      this.#open = open
    }
    const { chunk, numbers, words } = open
    const n = chunk.length >> 3
    numbers[n] = e.atMs
    numbers[n + 1] = e.realMs
    numbers[n + 2] = e.durationMs
    numbers[n + 3] = e.status ?? Number.NaN
    numbers[n + 4] = e.accountId ?? Number.NaN
    numbers[n + 5] = e.userId ?? Number.NaN
    numbers[n + 6] = e.tokenId ?? Number.NaN
    numbers[n + 7] = e.faultRule ?? Number.NaN
    let at = chunk.length + NUMBERS * 8
    words[at >> 2] = e.outcome === null ? 0 : OUTCOMES.indexOf(e.outcome)
    at += 4
    at = field(open, at, e.method)
    at = field(open, at, e.path)
    at = field(open, at, e.query)
    at = field(open, at, e.requestBody)
    at = field(open, at, e.responseBody)
    chunk.length = (at + 7) & ~7
    chunk.count++
  }

  /** The chunks written so far; the writer starts afresh. */
  take(): EncodedChunk[] {
    const chunks = this.#chunks
    this.#chunks = []
    this.#open = undefined
    return chunks
  }
}

/** Writes one field at `at` (a multiple of 4); returns where the next goes. */
function field({ chunk, aside, bytes, text, words }: Open, at: number, value: unknown): number {
  let length: number
  if (value === undefined || value === null) {
    words[at >> 2] = 0
    return at + 4
  }
  if (typeof value === 'string' && value.length <= INLINE_MAX) {
    // There is room for it whole (`room`): nothing is cut.
    length = text.write(value, at + 4)
  } else if (value instanceof Uint8Array && value.length <= INLINE_MAX) {
    bytes.set(value, at + 4)
    length = value.length
  } else {
    let index = typeof value === 'object' ? aside.get(value) : undefined
    if (index === undefined) {
      index = chunk.side.length
      chunk.side.push(value)
      if (typeof value === 'object') aside.set(value, index)
    }
    words[at >> 2] = (index + 1) * 2
    return at + 4
  }
  words[at >> 2] = length * 2 + 1
  return (at + 4 + length + 3) & ~3
}

const orNull = (n: number | undefined): number | null => (n === undefined || Number.isNaN(n) ? null : n)

/** The entries of a chunk, as pushed (a body that was bytes comes back as its text). */
export function readChunk(chunk: EncodedChunk): PendingEntry[] {
  const bytes = Buffer.from(chunk.buffer)
  const words = new Uint32Array(chunk.buffer)
  const numbers = new Float64Array(chunk.buffer)
  const entries: PendingEntry[] = []
  let at = 0
  const next = (): unknown => {
    const word = words[at >> 2] ?? 0
    at += 4
    if (word === 0) return undefined
    if (word % 2 === 0) return chunk.side[word / 2 - 1]
    const length = (word - 1) / 2
    const text = bytes.toString('utf8', at, at + length)
    at = (at + length + 3) & ~3
    return text
  }
  for (let i = 0; i < chunk.count; i++) {
    const n = at >> 3
    at += NUMBERS * 8
    const outcome = OUTCOMES[words[at >> 2] ?? 0] ?? null
    at += 4
    entries.push({
      atMs: numbers[n] ?? 0,
      realMs: numbers[n + 1] ?? 0,
      durationMs: numbers[n + 2] ?? 0,
      status: orNull(numbers[n + 3]),
      accountId: orNull(numbers[n + 4]),
      userId: orNull(numbers[n + 5]),
      tokenId: orNull(numbers[n + 6]),
      faultRule: orNull(numbers[n + 7]),
      outcome,
      method: next() as string,
      path: next() as string,
      query: (next() as string | undefined) ?? '',
      requestBody: next(),
      responseBody: next() as string | Uint8Array | undefined,
    })
    at = (at + 7) & ~7
  }
  return entries
}
