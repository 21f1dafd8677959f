import assert from 'node:assert/strict'
import { hash } from 'node:crypto'
import { describe, it } from 'node:test'
import { BatchEncoder } from '../../../src/modules/control/journal/journal-batch-text.ts'
import { ChunkWriter, readChunk } from '../../../src/modules/control/journal/journal-chunks.ts'
import { journalBody } from '../../../src/modules/control/journal/journal-redact.ts'
import type { PendingEntry } from '../../../src/modules/control/journal/journal-rows.ts'

const digestOf = (body: unknown): string | null => {
  const text = journalBody(body)
  return text === null ? null : hash('sha256', text, 'base64url')
}

/** The row text as it was made before it was written from the bytes: JSON.stringify of an array per entry. */
const expectedRows = (entries: PendingEntry[]): string =>
  JSON.stringify(
    entries.map((e) => [
      e.atMs,
      e.realMs,
      e.method,
      e.path,
      e.query,
      e.status,
      Math.round(e.durationMs * 1000) / 1000,
      e.accountId,
      e.userId,
      e.tokenId,
      digestOf(e.requestBody),
      digestOf(e.responseBody),
      e.faultRule,
      e.outcome,
    ]),
  )

const base: PendingEntry = {
  atMs: 1_795_000_000_123,
  realMs: 1_764_000_000_456,
  method: 'GET',
  path: '/v4/profile',
  query: '',
  status: 200,
  durationMs: 1.2345,
  accountId: 1,
  userId: 2,
  tokenId: 3,
  requestBody: undefined,
  responseBody: undefined,
  faultRule: null,
  outcome: null,
}

const encode = (encoder: BatchEncoder, entries: PendingEntry[]) => {
  const writer = new ChunkWriter()
  for (const e of entries) writer.add(e)
  return encoder.encode(writer.take(), 'p1')
}

describe('the journal batch written from the chunks’ bytes', () => {
  it('is byte for byte the JSON of an array per entry, escapes, long fields and numbers included', () => {
    const profile = JSON.stringify({ username: 'u', email: 'u@example.com', referrals: { code: 'r' } })
    const entries: PendingEntry[] = [
      base,
      // Each character that needs escaping alone, then all together.
      ...['"', '\\', '\t', '\u0001', '\u001f'].map((c) => ({ ...base, path: `/v4/a${c}b`, query: `q=${c}` })),
      { ...base, path: '/v4/"quoted"\\back\tslash\u0001/ünï😀', query: 'a=%22&b=\u007f' },
      { ...base, path: `/v4/${'long/'.repeat(600)}`, query: `q=${'x'.repeat(5000)}`, method: 'PUT' },
      {
        ...base,
        status: null,
        accountId: null,
        userId: 0,
        tokenId: -7,
        faultRule: 12,
        outcome: 'dropped',
        atMs: 0,
        realMs: -1,
        durationMs: 0,
      },
      { ...base, outcome: 'client_closed', status: 499, atMs: 1.5, realMs: 2 ** 53 + 2 },
      { ...base, requestBody: profile, responseBody: Buffer.from(profile) },
      { ...base, requestBody: { password: 'p', label: 'x' }, responseBody: Buffer.from('x'.repeat(5000)) },
      { ...base, requestBody: '', responseBody: Buffer.alloc(0) },
      { ...base, responseBody: `{"big":"${'b'.repeat(3000)}","token":"t"}` },
    ]
    const durations = [
      0,
      0.0004,
      0.0005,
      0.001,
      0.01,
      0.1,
      0.999,
      1,
      1.0005,
      9.99949,
      12.3456,
      100.1,
      123456.789,
      999999.9999,
      1e9 + 0.5,
      -0.0001,
      -3.25,
      1e13,
      Number.NaN,
    ]
    for (const durationMs of durations) entries.push({ ...base, durationMs })
    for (let i = 0; i < 200; i++) {
      entries.push({
        ...base,
        atMs: Math.floor(Math.random() * 2 ** 45),
        realMs: Math.floor(Math.random() * 2 ** 53),
        durationMs: Math.random() * 10 ** Math.floor(Math.random() * 6),
        accountId: Math.floor(Math.random() * 2 ** 33),
      })
    }
    const { row, bodies } = encode(new BatchEncoder(), entries)
    assert.equal(row?.rows, expectedRows(entries))
    assert.equal(row?.entries, entries.length)
    assert.equal(row?.lastAtMs, Math.max(...entries.map((e) => e.atMs)))
    assert.equal(row?.lastRealMs, Math.max(...entries.map((e) => e.realMs)))
    const named = [...new Set(entries.flatMap((e) => [digestOf(e.requestBody), digestOf(e.responseBody)]))]
    assert.deepEqual(
      [...bodies.keys()],
      named.filter((d) => d !== null),
    )
    assert.equal(row?.digests, JSON.stringify([...bodies.keys()]))
    for (const [digest, text] of bodies) assert.equal(hash('sha256', text, 'base64url'), digest)
    assert.ok(![...bodies.values()].some((text) => text.includes('"p"') || text.includes('"t"')))
  })

  it('names a body met in an earlier batch in each later batch that meets it again', () => {
    const encoder = new BatchEncoder()
    const body = '{"label":"again","password":"hunter2"}'
    const first = encode(encoder, [{ ...base, requestBody: body }])
    const second = encode(encoder, [
      { ...base, requestBody: body },
      { ...base, responseBody: Buffer.from(body) },
    ])
    assert.deepEqual([...second.bodies], [...first.bodies])
    assert.equal(
      second.row?.rows,
      expectedRows([
        { ...base, requestBody: body },
        { ...base, responseBody: body },
      ]),
    )
    assert.deepEqual([...second.bodies.values()], ['{"label":"again","password":"[redacted]"}'])
  })

  it('writes no row for chunks without entries', () => {
    assert.equal(new BatchEncoder().encode([], 'p1').row, undefined)
  })
})

describe('the journal’s chunks', () => {
  it('are filled again once handed back, and read as they were written', () => {
    const writer = new ChunkWriter()
    writer.add(base)
    const [first] = writer.take()
    assert.ok(first !== undefined)
    writer.recycle([first.buffer])
    writer.add({ ...base, path: '/v4/again' })
    const [again] = writer.take()
    assert.equal(again?.buffer, first.buffer)
    assert.deepEqual(
      readChunk(again as NonNullable<typeof again>).map((e) => e.path),
      ['/v4/again'],
    )
    // A buffer still transferred away (detached: empty) is not taken.
    writer.recycle([new ArrayBuffer(0)])
    writer.add(base)
    assert.equal(writer.take()[0]?.buffer.byteLength, 512 * 1024)
  })
})
