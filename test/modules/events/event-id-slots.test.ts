import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { countSlots, FINE } from '../../../src/modules/events/event-counts.ts'

const COARSE = 16_384
const SINCE = '2026-01-01T00:00:00'

/**
 * How an `id` range's `results` is split for the tallies (event-range-counts.test.ts checks the
 * counts themselves against the rows): whole coarse blocks, whole fine blocks, and the events of
 * the two partial blocks at the ends, each read as the shorter part of its block, added or taken
 * away. Over every id in the range (each present once), the parts must add up to the range's
 * length, and no end may read more than half a block of events.
 */
describe('account events: the parts an id range is counted by', () => {
  const slots = (from: number, to: number) => {
    const s = countSlots(JSON.stringify({ id: { '+gte': from, '+lt': to } }), SINCE) as Record<string, number>
    const span = (a: string, b: string) => (s[b] as number) - (s[a] as number)
    return {
      coarse: span('coarseFrom', 'coarseTo'),
      fine: span('fineFrom1', 'fineTo1') + span('fineFrom2', 'fineTo2'),
      ends: [span('idFrom1', 'idTo1'), span('idFrom2', 'idTo2')],
      // Read as they are unless taken away.
      signs: [s.idSign1 ?? 1, s.idSign2 ?? 1],
    }
  }

  it('adds up to the range, reading at most half a block of events at either end', () => {
    const id = fc.integer({ min: 0, max: 40 * COARSE })
    fc.assert(
      fc.property(id, id, (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a]
        const { coarse, fine, ends, signs } = slots(from, to)
        const total =
          coarse * COARSE +
          fine * FINE +
          (signs[0] as number) * (ends[0] as number) +
          (signs[1] as number) * (ends[1] as number)
        assert.equal(total, to - from, JSON.stringify({ from, to, coarse, fine, ends, signs }))
        // A range inside one or two blocks is read whole (at most two blocks' ids).
        if (Math.ceil(from / FINE) < Math.floor(to / FINE)) {
          for (const end of ends) assert.ok(end <= FINE / 2, JSON.stringify({ from, to, ends }))
        }
      }),
      { numRuns: 2_000 },
    )
  })

  it('reads the ids past the range in a block it mostly covers, at every offset in the block', () => {
    for (let offset = 1; offset < FINE; offset++) {
      const from = 3 * COARSE + 5 * FINE + offset
      const to = 9 * COARSE + 2 * FINE + offset
      const { ends, signs } = slots(from, to)
      assert.equal(ends[0], Math.min(FINE - offset, offset), `from at ${offset}`)
      assert.equal(signs[0], FINE - offset > FINE / 2 ? -1 : 1, `from at ${offset}`)
      assert.equal(ends[1], Math.min(offset, FINE - offset), `to at ${offset}`)
      assert.equal(signs[1], offset > FINE / 2 ? -1 : 1, `to at ${offset}`)
    }
  })
})
