import { hash } from 'node:crypto'
import type { EncodedChunk } from './journal-chunks.ts'
import { journalBody } from './journal-redact.ts'
import type { JournalBatchRow } from './journal-rows.ts'

/**
 * A batch as it is stored, written straight from the chunks' bytes: the entries' JSON text (the
 * `rows` of journal-rows.ts, byte for byte what JSON.stringify makes of an array per entry) goes
 * into one reused buffer, with no object, array or string per entry, and a body is decoded,
 * redacted and digested only the first time its bytes are met (KnownBodies). That is the journal
 * thread's whole cost per entry; on a machine with few cores it is taken from the request rate.
 */
const OUT_BYTES = 256 * 1024
/** 10⁹: below it a number's digits are found with 32-bit integer arithmetic. */
const SMALL = 1e9
const POWERS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

export class BatchEncoder {
  #out = Buffer.allocUnsafeSlow(OUT_BYTES)
  #at = 0
  readonly #known = new KnownBodies()
  /** Numbers the batches, to tell whether a known body is in the current one's bodies yet. */
  #batch = 0

  /** The row that stores the chunks' entries (none if they hold none), and the bodies it names. */
  encode(
    chunks: EncodedChunk[],
    processId: string,
  ): { row: JournalBatchRow | undefined; bodies: Map<string, string> } {
    const batch = ++this.#batch
    /** Digest to redacted text, in the order first met (the order of the row's `digests`). */
    const bodies = new Map<string, string>()
    /** Bodies kept aside as values, by identity: the same object is one body. */
    const aside = new Map<unknown, Known | null>()
    this.#at = 0
    this.#byte(0x5b) // [
    let entries = 0
    let lastAtMs = Number.NEGATIVE_INFINITY
    let lastRealMs = Number.NEGATIVE_INFINITY
    for (const chunk of chunks) {
      const bytes = Buffer.from(chunk.buffer, 0, chunk.length)
      const words = new Uint32Array(chunk.buffer, 0, chunk.length >> 2)
      const numbers = new Float64Array(chunk.buffer, 0, chunk.length >> 3)
      /** The body a field's word names (null: none), noted in this batch's bodies. */
      const body = (word: number, at: number): Known | null => {
        let known: Known | null
        if (word === 0) return null
        if (word % 2 === 1) known = this.#known.of(bytes, at, (word - 1) / 2)
        else {
          const value = chunk.side[word / 2 - 1]
          const seen = aside.get(value)
          if (seen !== undefined) known = seen
          else {
            known =
              value instanceof Uint8Array
                ? this.#known.of(
                    Buffer.from(value.buffer, value.byteOffset, value.byteLength),
                    0,
                    value.length,
                  )
                : KnownBodies.make(journalBody(value))
            aside.set(value, known)
          }
        }
        if (known !== null && known.batch !== batch) {
          known.batch = batch
          bodies.set(known.digest, known.text)
        }
        return known
      }
      let at = 0
      for (let i = 0; i < chunk.count; i++) {
        const n = at >> 3
        const atMs = numbers[n] as number
        const realMs = numbers[n + 1] as number
        if (atMs > lastAtMs) lastAtMs = atMs
        if (realMs > lastRealMs) lastRealMs = realMs
        at += 8 * 8
        const outcome = words[at >> 2] as number
        at += 4
        if (entries++ > 0) this.#byte(0x2c) // ,
        this.#byte(0x5b)
        this.#number(atMs)
        this.#byte(0x2c)
        this.#number(realMs)
        this.#byte(0x2c)
        at = this.#text(chunk, bytes, words, at, NULL) // method
        this.#byte(0x2c)
        at = this.#text(chunk, bytes, words, at, NULL) // path
        this.#byte(0x2c)
        at = this.#text(chunk, bytes, words, at, EMPTY_TEXT) // query
        this.#byte(0x2c)
        this.#number(numbers[n + 3] as number) // status
        this.#byte(0x2c)
        this.#duration(numbers[n + 2] as number)
        for (let k = 4; k <= 6; k++) {
          this.#byte(0x2c)
          this.#number(numbers[n + k] as number) // account, user, token
        }
        const requestWord = words[at >> 2] as number
        const request = body(requestWord, at + 4)
        at = skip(requestWord, at)
        const responseWord = words[at >> 2] as number
        const response = body(responseWord, at + 4)
        at = skip(responseWord, at)
        this.#byte(0x2c)
        this.#bytes(request?.quoted ?? NULL)
        this.#byte(0x2c)
        this.#bytes(response?.quoted ?? NULL)
        this.#byte(0x2c)
        this.#number(numbers[n + 7] as number) // fault rule
        this.#byte(0x2c)
        this.#bytes(OUTCOMES[outcome] ?? NULL)
        this.#byte(0x5d) // ]
        at = (at + 7) & ~7
      }
    }
    this.#byte(0x5d)
    if (entries === 0) return { row: undefined, bodies }
    const row: JournalBatchRow = {
      process: processId,
      entries,
      lastAtMs,
      lastRealMs,
      rows: this.#out.toString('utf8', 0, this.#at),
      digests: JSON.stringify([...bodies.keys()]),
    }
    // A burst's batch may have grown the buffer far past what batches usually need.
    if (this.#out.length > OUT_BYTES * 16) this.#out = Buffer.allocUnsafeSlow(OUT_BYTES)
    return { row, bodies }
  }

  #room(bytes: number): void {
    if (this.#at + bytes <= this.#out.length) return
    const out = Buffer.allocUnsafeSlow(Math.max(this.#out.length * 2, this.#at + bytes))
    this.#out.copy(out, 0, 0, this.#at)
    this.#out = out
  }

  #json(text: string): void {
    this.#room(Buffer.byteLength(text))
    this.#at += this.#out.write(text, this.#at)
  }

  #byte(b: number): void {
    this.#room(1)
    this.#out[this.#at++] = b
  }

  #bytes(b: Uint8Array): void {
    this.#room(b.length)
    const out = this.#out
    let at = this.#at
    for (let i = 0; i < b.length; i++) out[at++] = b[i] as number
    this.#at = at
  }

  /** As JSON.stringify writes a number (NaN, a null field, as null). */
  #number(x: number): void {
    if (Number.isNaN(x)) {
      this.#bytes(NULL)
      return
    }
    if (!Number.isSafeInteger(x)) {
      this.#json(JSON.stringify(x))
      return
    }
    this.#room(17)
    if (x < 0) {
      this.#out[this.#at++] = 0x2d // -
      x = -x
    }
    // In 32-bit pieces, which the compiler divides as integers (a time in ms is 41 bits).
    if (x < SMALL) {
      this.#digits(x, 0)
      return
    }
    const high = Math.floor(x / SMALL)
    this.#digits(high, 0)
    this.#digits(x - high * SMALL, 9)
  }

  /** A non-negative integer below SMALL, zero-padded to `width` digits. */
  #digits(x: number, width: number): void {
    let n = x | 0
    let digits = 1
    while (digits < 10 && n >= (POWERS[digits] as number)) digits++
    if (digits < width) digits = width
    const out = this.#out
    let at = this.#at + digits
    this.#at = at
    for (let k = 0; k < digits; k++) {
      const q = (n / 10) | 0
      out[--at] = 0x30 + n - q * 10
      n = q
    }
  }

  /**
   * A duration as the row keeps it, to the microsecond: Math.round(ms * 1000) / 1000, whose
   * shortest form (JSON's) is that count of microseconds with the point moved by three places
   * while a microsecond is far above the number's precision.
   */
  #duration(ms: number): void {
    const micros = Math.round(ms * 1000)
    if (!(micros >= 0 && micros < 1e12)) {
      this.#number(micros / 1000)
      return
    }
    const whole = Math.floor(micros / 1000)
    let fraction = micros - whole * 1000
    this.#number(whole)
    if (fraction === 0) return
    this.#room(4)
    const out = this.#out
    out[this.#at++] = 0x2e // .
    for (let scale = 100; fraction > 0; scale /= 10) {
      const digit = Math.floor(fraction / scale)
      out[this.#at++] = 0x30 + digit
      fraction -= digit * scale
    }
  }

  /**
   * The text field at `at` as a JSON string: its bytes as they are, unless one needs escaping
   * (a quote, a backslash, a control character), then as JSON.stringify writes it. Returns where
   * the next field is.
   */
  #text(chunk: EncodedChunk, bytes: Buffer, words: Uint32Array, at: number, none: Uint8Array): number {
    const word = words[at >> 2] as number
    if (word === 0) this.#bytes(none)
    else if (word % 2 === 0) this.#json(JSON.stringify(chunk.side[word / 2 - 1])) // long: kept aside
    if (word % 2 === 0) return at + 4
    const length = (word - 1) / 2
    const start = at + 4
    this.#room(length + 2)
    const out = this.#out
    const opened = this.#at
    let o = opened
    out[o++] = 0x22
    for (let i = start; i < start + length; i++) {
      const b = bytes[i] as number
      if (b < 0x20 || b === 0x22 || b === 0x5c) {
        this.#at = opened
        this.#json(JSON.stringify(bytes.toString('utf8', start, start + length)))
        return (start + length + 3) & ~3
      }
      out[o++] = b
    }
    out[o++] = 0x22
    this.#at = o
    return (start + length + 3) & ~3
  }
}

/** Past a field at `at` whose word is `word`. */
const skip = (word: number, at: number): number =>
  word % 2 === 1 ? (at + 4 + (word - 1) / 2 + 3) & ~3 : at + 4

const NULL = Buffer.from('null')
const EMPTY_TEXT = Buffer.from('""')
const OUTCOMES = [NULL, Buffer.from('"dropped"'), Buffer.from('"client_closed"')]

/** A body met before: its redacted text and the key it is stored by. */
interface Known {
  digest: string
  /** The digest as a JSON string, ready to copy into a row. */
  quoted: Uint8Array
  text: string
  /** The last batch that named it. */
  batch: number
  /** The bytes it came as (none for a body that was not bytes: those are not looked up). */
  raw?: Buffer
}

/** Bodies longer than this are redacted each batch rather than kept (a batch meets each once). */
const KNOWN_MAX = 64 * 1024
/** Bytes of bodies kept before they are all forgotten (simpler than an order of use, as good here). */
const KNOWN_BYTES = 4 * 1024 * 1024
/** Different bodies kept per length: answers of one shape differ in a few bytes, not in length. */
const PER_LENGTH = 8

/**
 * Bodies this thread has redacted, by the bytes they came as: a body met again (a profile read
 * again, the same settings written again) is found by its length and one native comparison of its
 * bytes, and costs neither a decode to text, nor redacting, nor hashing. The same bytes always
 * redact to the same text, so what the first one gave stands for every later one.
 */
class KnownBodies {
  readonly #byLength = new Map<number, Known[]>()
  #bytes = 0

  static make(text: string | null, raw?: Buffer): Known | null {
    if (text === null) return null
    const digest = hash('sha256', text, 'base64url')
    return { digest, quoted: Buffer.from(`"${digest}"`, 'latin1'), text, batch: 0, ...(raw && { raw }) }
  }

  of(bytes: Buffer, start: number, length: number): Known | null {
    if (length === 0) return null
    const end = start + length
    const same = this.#byLength.get(length)
    if (same !== undefined) {
      for (const known of same) {
        if (bytes.compare(known.raw as Buffer, 0, length, start, end) === 0) return known
      }
    }
    const text = bytes.toString('utf8', start, end)
    if (length > KNOWN_MAX) return KnownBodies.make(journalBody(text))
    const known = KnownBodies.make(journalBody(text), Buffer.from(bytes.subarray(start, end)))
    if (known === null) return null
    if (this.#bytes + length > KNOWN_BYTES) {
      this.#byLength.clear()
      this.#bytes = 0
    }
    const list = this.#byLength.get(length) ?? []
    if (list.length === 0) this.#byLength.set(length, list)
    if (list.length >= PER_LENGTH) this.#bytes -= (list.shift() as Known).raw?.length ?? 0
    list.push(known)
    this.#bytes += length
    return known
  }
}
